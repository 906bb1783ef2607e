import type { ApiContext } from '../../context.js';
import type { HumanEvidence } from '../../domain/vpat/human-evidence.js';
import { domainErrors } from '../../domain/errors.js';
import { findAssessment, latestAssessment } from '../../store/assessments/assessments.js';
import { listResults } from '../../store/assessments/results.js';
import { lastResultChange } from '../../store/vpat/newer-evidence.js';

/**
 * The assessment a report of `siteId` uses: the one named (which must be of that site), else the site's
 * newest one, else none.
 */
export async function assessmentForReport(
  ctx: ApiContext,
  org: string,
  siteId: string,
  id: string | undefined,
): Promise<HumanEvidence | undefined> {
  const assessment = id ? await findAssessment(ctx.db, org, id) : await latestAssessment(ctx.db, org, siteId);
  if (id && !assessment) throw domainErrors.notFound('assessment');
  if (!assessment) return undefined;
  if (assessment.siteId !== siteId) {
    throw domainErrors.invalid([
      {
        pointer: '#/assessment_id',
        detail: `assessment ${assessment.id} is of site "${assessment.siteId}", not "${siteId}"`,
      },
    ]);
  }
  // The mark first: a result written meanwhile is counted as newer (and read again by the next version),
  // never lost between the two reads.
  const changesThrough = await lastResultChange(ctx.db, assessment.id);
  return { assessment, results: await listResults(ctx.db, assessment.id), changesThrough };
}
