import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { nextTurn } from '../../domain/turns.js';
import {
  violationsByCriterion,
  type CriterionViolations,
  type WaiverInput,
} from '../../domain/statement/non-accessible.js';
import { tallyByCriterion, type CriterionTallies } from '../../domain/vpat/evidence-tally.js';
import type { VpatReport } from '../../domain/vpat/report.js';
import type { RuleCoverage } from '../../domain/vpat/rule-coverage.js';
import { waiverState } from '../../../core/waivers/match.js';
import { activeWaiversForSite } from '../../store/waivers/waivers.js';
import { evidencePages, findEvidenceScan } from '../../store/vpat/evidence.js';
import { evidenceGroups } from '../../store/vpat/evidence-groups.js';
import { axeRuleCoverage } from '../vpat/axe-rule-coverage.js';

/** What a statement reads besides its report: where the report's scan failed, and the site's waivers. */
export interface StatementSources {
  violations: Map<string, CriterionViolations>;
  waivers: WaiverInput[];
  coverage: RuleCoverage;
}

/**
 * The report's scan read as the report was (its issue groups, a page range at a time, with the site's active
 * waivers counted), folded into violations per criterion with their pages; and the site's active waivers.
 */
export async function readStatementSources(
  ctx: ApiContext,
  org: string,
  report: VpatReport,
  now: string,
): Promise<StatementSources> {
  const coverage = await axeRuleCoverage();
  const scan = await findEvidenceScan(ctx.db, org, report.scan_id);
  if (!scan) throw domainErrors.conflict(`Scan ${report.scan_id} of report ${report.id} is gone.`);
  const pages = await evidencePages(ctx.db, scan.id);
  const tallies = new Map<string, CriterionTallies>();
  const knownHelp = new Set(coverage.helpUrls.keys());
  for await (const groups of evidenceGroups(ctx.db, scan, pages, now, knownHelp, new Map())) {
    tallyByCriterion(groups, coverage, tallies);
    await nextTurn();
  }
  const pageAddress = new Map(pages.map((p) => [p.index, p.address]));
  const waivers = (await activeWaiversForSite(ctx.db, org, report.siteId, now))
    .filter((w) => waiverState(w, now) === 'active')
    .map((w) => ({
      id: w.id,
      rule: w.rule,
      selector: w.selector,
      urlPattern: w.urlPattern,
      fingerprint: w.fingerprint,
      reason: w.reason,
      reasonCategory: w.reasonCategory,
      expiresAt: w.expiresAt,
      createdAt: w.createdAt,
    }));
  return { violations: violationsByCriterion(tallies, pageAddress), waivers, coverage };
}
