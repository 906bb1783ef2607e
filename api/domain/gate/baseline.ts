/**
 * Which scan is the head and which is the baseline of a deploy-gate decision. Pure: the store narrows
 * the candidates in SQL, these rules decide.
 */

export interface ScanRef {
  id: string;
  sha: string | null;
  branch: string | null;
  createdAt: string;
  /** How its issues were fingerprinted; across versions the matcher pairs issues by similarity only. */
  fingerprintVersion?: number;
}

export type BaselineStrategy = 'baseline_sha' | 'base_branch' | 'none';

export interface BaselineChoice {
  scan: ScanRef | null;
  strategy: BaselineStrategy;
  /** A sentence saying why this baseline (or none). */
  reason: string;
}

/** Newest first; ties broken by id so the choice is stable. */
function newest(a: ScanRef, b: ScanRef): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/** The head scan: the latest scan of the site with that sha (a re-run of CI supersedes earlier ones). */
export function chooseHeadScan(scans: readonly ScanRef[], sha: string): ScanRef | null {
  const s = sha.toLowerCase();
  return [...scans].filter((x) => x.sha?.toLowerCase() === s).sort(newest)[0] ?? null;
}

/**
 * The baseline: the scan of `baseline_sha` when the request names one (if that commit has no scan
 * there is no baseline — we never silently compare with something else the caller did not ask for);
 * else the latest scan on the site's base branch created before the head scan with another sha;
 * else none, and every issue is new.
 */
export function chooseBaseline(input: {
  head: ScanRef;
  baselineSha?: string | null;
  baseBranch: string;
  candidates: readonly ScanRef[];
}): BaselineChoice {
  const choice = pickBaseline(input);
  const a = input.head.fingerprintVersion;
  const b = choice.scan?.fingerprintVersion;
  if (choice.scan && a !== undefined && b !== undefined && a !== b) {
    // Still compared: fingerprints of two versions are different keys, so the matcher pairs the
    // issues by similarity alone (tag, snippet, attributes, text, selector path), and says so.
    choice.reason +=
      ` Its issues were fingerprinted with version ${b} and this commit's with version ${a}, so ` +
      'issues were matched by similarity of their elements, not by fingerprint.';
  }
  return choice;
}

function pickBaseline(input: {
  head: ScanRef;
  baselineSha?: string | null;
  baseBranch: string;
  candidates: readonly ScanRef[];
}): BaselineChoice {
  const { head, baseBranch, candidates } = input;
  if (input.baselineSha) {
    const want = input.baselineSha.toLowerCase();
    const scan = [...candidates].filter((x) => x.sha?.toLowerCase() === want).sort(newest)[0] ?? null;
    return {
      scan,
      strategy: 'baseline_sha',
      reason: scan
        ? `The latest scan of baseline_sha ${want.slice(0, 12)}, as the request asked.`
        : `The request named baseline_sha ${want.slice(0, 12)}, but that commit has no scan: every issue counts as new.`,
    };
  }
  const headSha = head.sha?.toLowerCase() ?? null;
  const scan =
    [...candidates]
      .filter(
        (x) =>
          x.branch === baseBranch &&
          x.id !== head.id &&
          x.createdAt < head.createdAt &&
          (x.sha?.toLowerCase() ?? null) !== headSha,
      )
      .sort(newest)[0] ?? null;
  if (scan) {
    return {
      scan,
      strategy: 'base_branch',
      reason: `The latest scan on the base branch "${baseBranch}" before this commit's scan.`,
    };
  }
  return {
    scan: null,
    strategy: 'none',
    reason: `No scan on the base branch "${baseBranch}" before this commit's scan: every issue counts as new.`,
  };
}
