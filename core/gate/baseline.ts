import type { ServedFolderRef } from './served-folder.js';
import { enginesDiffer, engineLabel, type ScanEngine } from './engine.js';
import type { ScanScope } from './coverage.js';

/** The head and baseline scans of a deploy-gate decision, as the gate sees them. */

export interface ScanRef {
  id: string;
  sha: string | null;
  branch: string | null;
  createdAt: string;
  /** How its issues were fingerprinted; across versions the matcher pairs issues by similarity only. */
  fingerprintVersion?: number;
  /** The engine that made it, when the scan says (null: unknown). */
  engine?: ScanEngine | null;
  /** Whether it covers the site (`full`, the default) or only the pages it lists (`partial`). */
  scope?: ScanScope;
  /** The built folder the CLI served for it (`--serve`), or null. */
  served?: ServedFolderRef | null;
}

export type BaselineStrategy = 'baseline_sha' | 'base_branch' | 'none';

export interface BaselineChoice {
  scan: ScanRef | null;
  strategy: BaselineStrategy;
  /** A sentence saying why this baseline (or none). */
  reason: string;
  /**
   * The first scan on the base branch: nothing to compare with, so its issues are the debt the site starts
   * from and the gate passes (reason `baseline_recorded`). On other branches no baseline means every
   * issue is new.
   */
  recorded?: boolean;
  /**
   * The baseline was made with another engine than the head: issues that differ are engine changes
   * (engine.ts), not regressions or fixes.
   */
  engineChanged?: boolean;
}

/**
 * Why the gate compares with the scan it does. Which scan that is, the store decides in one query
 * (`findGateScans`): the latest full scan of `baseline_sha` when the request names one (none if that commit
 * has no full scan, never a silent substitute: only a request with `baseline_fallback: base_branch` falls
 * back); else the latest full scan on the site's base branch created before the head scan with another
 * sha; else none, and every issue is new. A partial scan is never a baseline. This names the strategy and
 * says why.
 */
export function describeBaseline(input: {
  head: ScanRef;
  baselineSha?: string | null;
  baseBranch: string;
  scan: ScanRef | null;
  /**
   * A later base-branch scan passed over because it was made with another engine than the head (the
   * baseline is then the latest made with the head's engine).
   */
  passedOver?: ScanRef | null;
  /** `baselineSha` had no scan and the request asked for the base branch instead (`baseline_fallback`). */
  fellBack?: boolean;
  /** No baseline was found, but partial scans were passed over where one was looked for. */
  partialOnly?: boolean;
}): BaselineChoice {
  const choice = strategyOf(input);
  // A partial scan records no baseline: it is never one (docs/gate.md, "Partial scans").
  const full = input.head.scope !== 'partial';
  if (!choice.scan && !input.baselineSha && input.head.branch === input.baseBranch && full) {
    return {
      scan: null,
      strategy: 'none',
      recorded: true,
      reason:
        `The first scan on the base branch "${input.baseBranch}": its issues are the debt the site starts ` +
        'from, recorded as the baseline the next commits are compared with.',
    };
  }
  const a = input.head.fingerprintVersion;
  const b = choice.scan?.fingerprintVersion;
  if (choice.scan && a !== undefined && b !== undefined && a !== b) {
    // Still compared: fingerprints of two versions are different keys, so the matcher pairs the
    // issues by similarity alone (tag, snippet, attributes, text, selector path), and says so.
    choice.reason +=
      ` Its issues were fingerprinted with version ${b} and this commit's with version ${a}, so ` +
      'issues were matched by similarity of their elements, not by fingerprint.';
  }
  return withEngines(choice, input.head, input.passedOver ?? null);
}

/** Says which engines the two scans were made with when that matters, and marks an engine change. */
function withEngines(choice: BaselineChoice, head: ScanRef, passedOver: ScanRef | null): BaselineChoice {
  const scan = choice.scan;
  if (scan && passedOver?.engine && head.engine && choice.strategy === 'base_branch') {
    choice.reason =
      `The latest scan on the base branch made with the same engine as this commit's ` +
      `(${engineLabel(head.engine)}), before this commit's scan; later scans there were made with ` +
      `${engineLabel(passedOver.engine)}.`;
  }
  if (scan && enginesDiffer(head.engine, scan.engine)) {
    choice.engineChanged = true;
    choice.reason +=
      ` It was made with ${engineLabel(scan.engine!)} and this commit's scan with ${engineLabel(head.engine!)}` +
      (choice.strategy === 'base_branch'
        ? ', and no scan on the base branch before was made with the latter'
        : '') +
      ': the issues that differ are labelled engine_change.';
  }
  return choice;
}

/**
 * What the gate says when the base branch has no scan to compare with: the one text of the service's
 * baseline reason (and so of the check run and the comment) and of the CLI's gate without a baseline file.
 * `partialOnly`: the base branch has partial scans only, and a partial scan is never a baseline.
 */
export function noBaselineText(baseBranch: string, partialOnly = false): string {
  return partialOnly
    ? `No full scan of ${baseBranch} yet (a partial scan is never a baseline): every issue counts as new. ` +
        `Scan every page of ${baseBranch} first, or commit a baseline file.`
    : `No scan of ${baseBranch} yet: every issue counts as new. Scan ${baseBranch} first, or commit a baseline file.`;
}

function strategyOf(input: {
  baselineSha?: string | null;
  baseBranch: string;
  scan: ScanRef | null;
  fellBack?: boolean;
  partialOnly?: boolean;
}): BaselineChoice {
  const { scan, baseBranch } = input;
  if (input.baselineSha && scan && input.fellBack) {
    // The request asked to fall back to the base branch when its baseline_sha has no scan.
    return {
      scan,
      strategy: 'base_branch',
      reason:
        `The request named baseline_sha ${input.baselineSha.toLowerCase().slice(0, 12)}, which has no scan, ` +
        `so the latest scan on the base branch "${baseBranch}" before this commit's scan, as it asked.`,
    };
  }
  if (input.baselineSha) {
    const want = input.baselineSha.toLowerCase().slice(0, 12);
    return {
      scan,
      strategy: 'baseline_sha',
      reason: scan
        ? `The latest scan of baseline_sha ${want}, as the request asked.`
        : input.partialOnly
          ? `The request named baseline_sha ${want}, but that commit has partial scans only, and a partial ` +
            'scan is never a baseline: every issue counts as new.'
          : `The request named baseline_sha ${want}, but that commit has no scan: every issue counts as new.`,
    };
  }
  if (scan) {
    return {
      scan,
      strategy: 'base_branch',
      reason: `The latest scan on the base branch "${baseBranch}" before this commit's scan.`,
    };
  }
  return { scan: null, strategy: 'none', reason: noBaselineText(baseBranch, input.partialOnly) };
}
