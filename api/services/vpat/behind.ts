import type { ApiContext } from '../../context.js';
import type { FieldError } from '../../domain/errors.js';
import { publicPath } from '../../../core/url-normalisation.js';
import type { ReportBehindState, VpatReport } from '../../domain/vpat/report.js';
import { behindSummary } from '../../domain/vpat/status.js';
import { findAssessment, latestAssessment } from '../../store/assessments/assessments.js';
import { baseBranch } from '../../store/vpat/evidence.js';
import { resultsChangedAfter, scansAfter, type NewerResult } from '../../store/vpat/newer-evidence.js';

/**
 * Evidence newer than a report version: results of its assessment (or, when it had none, of the site's
 * newest) recorded or changed after the last change it read, and scans of the site's base branch newer
 * than its scan. Read when asked; never stored, since newer evidence keeps arriving.
 */
export async function newerEvidence(
  ctx: ApiContext,
  org: string,
  report: VpatReport,
): Promise<{ state: ReportBehindState; results: NewerResult[] }> {
  const assessment = report.assessment
    ? await findAssessment(ctx.db, org, report.assessment.id)
    : await latestAssessment(ctx.db, org, report.siteId);
  const mark =
    report.assessment?.changes_through !== undefined
      ? { changeId: report.assessment.changes_through }
      : report.assessment
        ? { at: report.created_at }
        : { changeId: 0 };
  const [results, scans] = await Promise.all([
    assessment ? resultsChangedAfter(ctx.db, assessment.id, mark) : Promise.resolve([]),
    baseBranch(ctx.db, org, report.siteId).then((branch) =>
      scansAfter(ctx.db, org, report.siteId, branch, report.scan.created_at),
    ),
  ]);
  const counts = { results: results.length, scans: scans.count };
  return {
    state: {
      ...counts,
      assessment_id: assessment?.id ?? null,
      latest_scan_id: scans.latestId,
      summary: behindSummary(counts),
    },
    results,
  };
}

/** Newer results named one by one, as a refusal to publish lists them (the first `max`, then how many more). */
export function missingResults(results: readonly NewerResult[], max = 50): FieldError[] {
  const named = results.slice(0, max).map((r) => ({
    pointer: '#/publish_behind',
    detail:
      `${r.criterion} on ${r.page === null ? 'the whole sample' : publicPath(r.page)}: ` +
      `${r.after.outcome}, recorded by ${r.after.tester || r.by} on ${r.at.slice(0, 10)}`,
  }));
  if (results.length > max)
    named.push({ pointer: '#/publish_behind', detail: `and ${results.length - max} more results` });
  return named;
}
