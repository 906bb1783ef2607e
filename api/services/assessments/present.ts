import type { Assessment, AssessmentResult } from '../../domain/vpat/assessments/assessment.js';
import { progress } from '../../domain/vpat/assessments/verdict.js';

/** The API's views of an assessment and its results (snake_case on the wire, as the API has always had). */

export const etagOf = (r: Pick<AssessmentResult, 'version'>) => `"r${r.version}"`;

export function presentResult(r: AssessmentResult) {
  return {
    criterion: r.criterion,
    page: r.page,
    outcome: r.outcome,
    notes: r.notes,
    tester: r.tester,
    version: r.version,
    etag: etagOf(r),
    updated_at: r.updatedAt,
  };
}

export function presentAssessment(a: Assessment, results: readonly AssessmentResult[]) {
  return {
    id: a.id,
    siteId: a.siteId,
    scan_id: a.scanId,
    title: a.title,
    standard: { wcag: '2.2' as const, level: a.level },
    sample: { pages: a.sample, seed: a.seed },
    origin: a.origin,
    progress: progress(
      a.level,
      a.sample.map((p) => p.url),
      results,
    ),
    created_at: a.createdAt,
    created_by: a.createdBy,
    updated_at: a.updatedAt,
  };
}
