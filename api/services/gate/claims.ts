import {
  claimOf,
  deployClaim,
  distinctClaims,
  type ClaimPolicy,
  type DeployClaims,
} from '../../../core/claims/deploy-claims.js';
import { verifyClaims, type Rescan, type ScannedElement } from '../../../core/claims/verification.js';
import { viewportPageKey } from '../../../core/matching/fingerprint.js';
import { pageKey } from '../../../core/url-normalisation.js';
import type { ApiContext } from '../../context.js';
import type { z } from '../../schemas/zod.js';
import type { ClaimInput } from '../../schemas/gate/claims.js';
import { claimedIssues, issuesOn, scanClaims, type ElementRow } from '../../store/gate/claimed-elements.js';
import { scanPages, type GatePageRow } from '../../store/gate/compared-scans.js';
import { pagesWithPasses, scanPassesOn } from '../../store/scans/passes.js';
import type { GateDecision } from './decision.js';

/**
 * Answers the fixes a change claims (docs/gate.md, "Claimed fixes"): the claims of the trigger and of the
 * head scan's body, each against the baseline's issue it names and the head scan's issues and passing
 * elements of its rule on its page (core/claims/verification.ts). The gate's own judgement of new issues is
 * untouched; only a `strict` site fails on a claim not fixed (triggers.ts).
 */

const keyOf = (p: GatePageRow) => viewportPageKey(pageKey(p.normalizedUrl), p.viewport);

function elements(rows: readonly ElementRow[], pages: ReadonlyMap<number, GatePageRow>): ScannedElement[] {
  return rows.map((r) => {
    const page = pages.get(r.pageIndex);
    return { ...r, page: page ? keyOf(page) : `#${r.pageIndex}` };
  });
}

export async function answerClaims(
  ctx: ApiContext,
  requested: readonly z.output<typeof ClaimInput>[] | undefined,
  policy: ClaimPolicy,
  decision: Pick<GateDecision, 'headScan' | 'baseline'>,
): Promise<DeployClaims | null> {
  const head = decision.headScan;
  const fromScan = head ? await scanClaims(ctx.db, head.id) : [];
  const claims = distinctClaims([...(requested ?? []).map(claimOf), ...fromScan]);
  if (claims.length === 0) return null;
  const fingerprints = claims.map((c) => c.fingerprint);
  const baseScan = decision.baseline?.scan ?? null;
  let baseline: ScannedElement[] = [];
  let rescan: Rescan = { pages: [], violations: [], passes: [], passPages: [] };
  const urls = new Map<string, string>();
  if (head && baseScan) {
    const [basePages, headPages] = await Promise.all([
      scanPages(ctx.db, baseScan.id),
      scanPages(ctx.db, head.id),
    ]);
    const claimed = await claimedIssues(ctx.db, baseScan.id, fingerprints);
    const rules = [...new Set(claimed.map((c) => c.rule))];
    const keys = new Set(
      claimed.map((c) => basePages.get(c.pageIndex)).flatMap((p) => (p ? [keyOf(p)] : [])),
    );
    baseline = elements(
      await issuesOn(ctx.db, baseScan.id, [...new Set(claimed.map((c) => c.pageIndex))], rules),
      basePages,
    );
    for (const p of basePages.values()) urls.set(keyOf(p), p.url);
    const headIndexes = [...headPages.values()].filter((p) => keys.has(keyOf(p))).map((p) => p.index);
    const [violations, passes, passed] = await Promise.all([
      issuesOn(ctx.db, head.id, headIndexes, rules),
      scanPassesOn(ctx.db, head.id, headIndexes, rules),
      pagesWithPasses(ctx.db, head.id, headIndexes),
    ]);
    rescan = {
      pages: [...headPages.values()].map(keyOf),
      violations: elements(violations, headPages),
      passes: elements(passes, headPages),
      passPages: [...headPages.values()].filter((p) => passed.has(p.index)).map(keyOf),
    };
  }
  const answers = verifyClaims(fingerprints, baseline, rescan);
  return {
    policy,
    items: claims.map((c, i) =>
      deployClaim(c, answers[i], answers[i].page ? (urls.get(answers[i].page) ?? null) : null),
    ),
  };
}
