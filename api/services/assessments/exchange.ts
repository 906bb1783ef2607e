import type { ApiContext } from '../../context.js';
import type { Assessment, AssessmentResult } from '../../domain/vpat/assessments/assessment.js';
import { toEarl } from '../../domain/vpat/assessments/earl.js';
import {
  importWcagEm,
  looksLikeJsonLd,
  type ImportedAssessment,
} from '../../domain/vpat/assessments/import-wcagem.js';
import { expandEvaluation } from './json-ld.js';
import { importInsights, looksLikeInsights } from '../../domain/vpat/assessments/import-insights.js';
import {
  checkContextTerms,
  checkImportCounts,
  checkSampleUrls,
} from '../../domain/vpat/assessments/import-bounds.js';
import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { insertAssessment } from '../../store/assessments/assessments.js';
import { insertChanges, insertResults, listResults } from '../../store/assessments/results.js';
import { getSite } from '../../store/sites/sites.js';
import { assessmentDetail, requireAssessment } from './assessments.js';

/** EARL in and out: an assessment as the WCAG-EM Report Tool's JSON-LD, and a tool's export as an assessment. */

export async function assessmentAsEarl(ctx: ApiContext, org: string, id: string): Promise<object> {
  const a = await requireAssessment(ctx, org, id);
  const site = await getSite(ctx.db, org, a.siteId);
  return toEarl(a, site?.name ?? a.siteId, await listResults(ctx.db, a.id));
}

/** PostgreSQL text cannot hold U+0000: a file carrying it is refused rather than stored in part. */
function refuseNul(imported: ImportedAssessment): ImportedAssessment {
  const texts = [
    imported.title,
    ...imported.sample.map((p) => p.url),
    ...imported.results.flatMap((r) => [r.notes, r.tester, r.page ?? '']),
  ];
  if (texts.every(isNulFree)) return imported;
  throw domainErrors.invalid([{ pointer: '#', detail: NUL_MESSAGE }]);
}

async function recognise(doc: unknown): Promise<ImportedAssessment> {
  // Counted before any reader maps the file: a file past a limit costs its counting only.
  checkImportCounts(doc);
  if (looksLikeJsonLd(doc)) checkContextTerms(doc);
  const imported = looksLikeJsonLd(doc)
    ? await importWcagEm(await expandEvaluation(doc))
    : looksLikeInsights(doc)
      ? importInsights(doc)
      : undefined;
  if (imported) {
    checkSampleUrls(imported.sample);
    return refuseNul(imported);
  }
  throw domainErrors.invalid(
    [
      {
        pointer: '#',
        detail:
          'is not a known export: expected EARL in JSON-LD (a WCAG-EM Report Tool evaluation, or another tool’s ' +
          'assertions: with @context or @graph) or an Accessibility Insights for Web assessment (.a11ywebassessment)',
      },
    ],
    'The file is well-formed JSON but no format this service imports.',
  );
}

/** Results written per batch of an import. */
const WRITE_BATCH = 1000;

/** Creates an assessment (with its results and their history) from a tool's export, in one transaction. */
export async function importAssessment(
  ctx: ApiContext,
  org: string,
  siteId: string,
  doc: unknown,
  by: string,
) {
  // The site first: a file for a site that is not there is not read at all.
  if (!(await getSite(ctx.db, org, siteId))) throw domainErrors.notFound('site');
  const imported = await recognise(doc);
  const now = nowIso();
  const a: Assessment = {
    id: newId('asm'),
    org,
    siteId,
    scanId: null,
    title: imported.title,
    level: imported.level,
    sample: imported.sample,
    seed: null,
    origin: imported.format,
    createdAt: now,
    createdBy: by,
    updatedAt: now,
  };
  const results: AssessmentResult[] = imported.results.map((r) => ({ ...r, version: 1, updatedAt: now }));
  await ctx.db.transaction(async (trx) => {
    await insertAssessment(trx, a);
    // In batches: the rows of a large import are made a batch at a time, between other requests.
    for (let i = 0; i < results.length; i += WRITE_BATCH) {
      const batch = results.slice(i, i + WRITE_BATCH);
      await insertResults(trx, a.id, batch);
      await insertChanges(
        trx,
        a.id,
        batch.map((r) => ({
          criterion: r.criterion,
          page: r.page,
          before: null,
          after: { outcome: r.outcome, notes: r.notes, tester: r.tester },
          by: `${by} (import)`,
          at: now,
        })),
      );
    }
  });
  ctx.logger.info(
    { assessment_id: a.id, org, site_id: siteId, format: imported.format },
    'assessment imported',
  );
  return assessmentDetail(ctx, org, a.id, imported.ignored);
}
