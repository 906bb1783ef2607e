import type { Knex } from 'knex';
import type { ScanRef } from '../../../core/gate/baseline.js';
import { enginesDiffer, type ScanEngine } from '../../../core/gate/engine.js';
import type { ScanScope } from '../../../core/gate/coverage.js';
import type { ServedFolderRef } from '../../../core/gate/served-folder.js';

/** Which two scans a gate decision compares (the head and its baseline), read from the scans table. */

type ScanRow = {
  id: string;
  sha: string | null;
  branch: string | null;
  created_at: string;
  fingerprint_version: number;
  engine_name: string | null;
  engine_version: string | null;
  scope: ScanScope | null;
  served: string | null;
};
const SCAN_COLUMNS = [
  'id',
  'sha',
  'branch',
  'created_at',
  'fingerprint_version',
  'engine_name',
  'engine_version',
  'scope',
  'served',
] as const;
const toScanRef = (r: ScanRow | undefined): ScanRef | undefined =>
  r && {
    id: r.id,
    sha: r.sha,
    branch: r.branch,
    createdAt: r.created_at,
    fingerprintVersion: Number(r.fingerprint_version),
    engine: r.engine_name ? { name: r.engine_name, version: r.engine_version } : null,
    scope: r.scope ?? 'full',
    served: r.served ? (JSON.parse(r.served) as ServedFolderRef) : null,
  };

const newestFirst = [
  { column: 'created_at', order: 'desc' as const },
  { column: 'id', order: 'desc' as const },
];

/**
 * The two scans a gate decision compares, the one statement of which they are: the head is the latest
 * complete scan of the site with that sha (a re-run of CI supersedes earlier ones); the baseline is the
 * latest full scan of `baselineSha` when one is named (none if that commit has none), else the latest
 * full scan on the base branch created before the head scan whose sha is not the head's, and made with
 * the head's engine when the latest was not and an earlier one was (`passedOver` is then the latest). A
 * partial scan is never a baseline: covering some pages only, it would count every issue of the others
 * as new against it. A named baseline is looked up beside the head (one round trip instead of two).
 */
export async function findGateScans(
  db: Knex,
  q: {
    org: string;
    siteId: string;
    sha: string;
    baselineSha?: string;
    /** A `baseline_sha` without a scan falls back to the base branch (else: no baseline). */
    fallbackToBaseBranch?: boolean;
    baseBranch: string;
  },
): Promise<{
  head: ScanRef | undefined;
  baseline: ScanRef | undefined;
  passedOver?: ScanRef;
  /** The named `baselineSha` had no scan and the request asked for the base branch instead. */
  fellBack?: boolean;
  /** No baseline, but where one was looked for there are partial scans (which are never one). */
  partialOnly?: boolean;
}> {
  const [head, named] = await Promise.all([
    latestScanForSha(db, q.org, q.siteId, q.sha),
    q.baselineSha ? latestScanForSha(db, q.org, q.siteId, q.baselineSha, 'full') : undefined,
  ]);
  if (!head || (q.baselineSha && (named || !q.fallbackToBaseBranch))) {
    const partialOnly =
      head && q.baselineSha && !named ? await hasPartialScan(db, q, { sha: q.baselineSha }) : false;
    return { head, baseline: named, ...(partialOnly ? { partialOnly } : {}) };
  }
  const fellBack = Boolean(q.baselineSha);
  const scope = { org: q.org, siteId: q.siteId, branch: q.baseBranch };
  const latest = await latestOnBranchBefore(db, scope, head.createdAt, head.sha);
  if (!latest) {
    const partialOnly = await hasPartialScan(db, q, { branch: q.baseBranch });
    return { head, baseline: latest, fellBack, ...(partialOnly ? { partialOnly } : {}) };
  }
  if (!enginesDiffer(head.engine, latest.engine)) return { head, baseline: latest, fellBack };
  const same = await latestOnBranchBefore(db, scope, head.createdAt, head.sha, head.engine!);
  return same ? { head, baseline: same, passedOver: latest, fellBack } : { head, baseline: latest, fellBack };
}

/** The latest scan of the site with that sha (the head scan; of `scope` only, a named baseline), if any. */
async function latestScanForSha(
  db: Knex,
  org: string,
  siteId: string,
  sha: string,
  scope?: ScanScope,
): Promise<ScanRef | undefined> {
  return toScanRef(
    await db('scans')
      .where({ org, site_id: siteId, sha, status: 'complete', ...(scope ? { scope } : {}) })
      .orderBy(newestFirst)
      .first(...SCAN_COLUMNS),
  );
}

/** Whether the site has a partial scan of that sha or on that branch: why no baseline was found there. */
async function hasPartialScan(
  db: Knex,
  q: { org: string; siteId: string },
  where: { sha: string } | { branch: string },
): Promise<boolean> {
  const row = await db('scans')
    .where({ org: q.org, site_id: q.siteId, status: 'complete', scope: 'partial', ...where })
    .first<{ id: string } | undefined>('id');
  return row !== undefined;
}

/**
 * The latest full scan on `branch` created before `before`, whose sha is not `excludeSha`, made with
 * `engine` when one is named (none qualifies).
 */
async function latestOnBranchBefore(
  db: Knex,
  scope: { org: string; siteId: string; branch: string },
  before: string,
  excludeSha: string | null,
  engine?: ScanEngine,
): Promise<ScanRef | undefined> {
  const q = db('scans')
    .where({
      org: scope.org,
      site_id: scope.siteId,
      branch: scope.branch,
      status: 'complete',
      scope: 'full',
    })
    .andWhere('created_at', '<', before)
    .orderBy(newestFirst);
  if (engine) {
    // As sameEngine decides: the name case aside, then the version.
    q.andWhereRaw('lower(engine_name) = ?', [engine.name.toLowerCase()]);
    if (engine.version === null) q.whereNull('engine_version');
    else q.andWhere('engine_version', engine.version);
  }
  if (excludeSha) {
    q.andWhere((w) => {
      w.whereNot('sha', excludeSha).orWhereNull('sha');
    });
  }
  return toScanRef(await q.first(...SCAN_COLUMNS));
}
