import type { ScanOptions } from '../scanner/options.js';
import { defaultScanGroup } from '../client/shard-submit.js';

/** The inputs of a sharded run: which job this is (`mode`) and the group key its jobs share. */

type GetInput = (name: string) => string;
type Fail = (input: string, message: string) => Error;
type Mode = 'scan' | 'complete';

const GROUP = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

/** `mode`: `scan` (the default) or `complete`, which takes no pages. */
export function modeInput(get: GetInput, results: string | null, scan: ScanOptions | null, fail: Fail): Mode {
  const mode = (get('mode').trim() || null) ?? 'scan';
  if (mode !== 'scan' && mode !== 'complete') {
    throw fail('mode', `must be "scan" or "complete", got "${mode}"`);
  }
  if (mode === 'complete' && (results || scan)) {
    throw fail(
      'mode',
      'is "complete": that job completes the scan the shards sent, so it takes no pages or results',
    );
  }
  return mode;
}

/** The group key of a sharded run: `scan-group`, else the commit and the run id every job of the run shares. */
export function shardGroup(
  get: GetInput,
  env: NodeJS.ProcessEnv,
  { mode, scan, sha }: { mode: Mode; scan: ScanOptions | null; sha: string },
  fail: Fail,
): string | null {
  const given = get('scan-group').trim() || null;
  if (given !== null && !GROUP.test(given)) {
    throw fail(
      'scan-group',
      'must be 1-200 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    );
  }
  if (mode === 'scan' && !scan?.shard) return null;
  const group = given ?? defaultScanGroup(sha, env);
  if (!group) throw fail('scan-group', 'is required outside GitHub Actions (GITHUB_RUN_ID is not set)');
  return group;
}
