import { randomInt } from 'node:crypto';
import type { ApiContext } from '../../context.js';
import type { Assessment, SamplePage } from '../../domain/vpat/assessments/assessment.js';
import { drawPages, sampleCandidates, type SampleCandidate } from '../../domain/vpat/assessments/sample.js';
import { domainErrors } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import type { CreateAssessmentBody, PatchAssessmentBody } from '../../schemas/assessments/assessments.js';
import type { z } from '../../schemas/zod.js';
import {
  deleteAssessment,
  findAssessment,
  insertAssessment,
  listAssessments,
  scanPageUrls,
  updateAssessment,
} from '../../store/assessments/assessments.js';
import { listResults } from '../../store/assessments/results.js';
import { getSite } from '../../store/sites/sites.js';
import { baseBranch, findEvidenceScan, latestEvidenceScan } from '../../store/vpat/evidence.js';
import { presentAssessment, presentResult } from './present.js';

type CreateInput = z.output<typeof CreateAssessmentBody>;
type PatchInput = z.output<typeof PatchAssessmentBody>;
type SampleInput = CreateInput['sample'];

/** The scan the sample is drawn from: the one named, or the latest scan of the site's base branch. */
async function scanOf(ctx: ApiContext, org: string, siteId: string, scanId: string | undefined) {
  if (scanId) {
    const scan = await findEvidenceScan(ctx.db, org, scanId);
    if (!scan) throw domainErrors.notFound('scan');
    if (scan.siteId !== siteId) {
      throw domainErrors.invalid([
        { pointer: '#/scan_id', detail: `scan ${scan.id} belongs to site "${scan.siteId}", not "${siteId}"` },
      ]);
    }
    return scan;
  }
  const branch = await baseBranch(ctx.db, org, siteId);
  const scan = await latestEvidenceScan(ctx.db, org, siteId, branch);
  if (!scan) throw domainErrors.notFound(`scan of site "${siteId}" on its base branch "${branch}"`);
  return scan;
}

/** The chosen pages (each a page of the scan) plus `random` drawn from the others with the seed. */
function sampleOf(input: SampleInput, pages: readonly SampleCandidate[], pointer: string) {
  const known = new Set(pages.map((p) => p.url));
  const errors = input.pages.flatMap((url, i) =>
    known.has(url)
      ? []
      : [{ pointer: `${pointer}/pages/${i}`, detail: `"${url}" is not a page of the scan` }],
  );
  const { chosen, others } = sampleCandidates(pages, input.pages);
  if (input.random > others.length) {
    errors.push({
      pointer: `${pointer}/random`,
      detail: `the scan has only ${others.length} other pages to draw from`,
    });
  }
  if (errors.length > 0) throw domainErrors.invalid(errors);
  const seed = input.random > 0 ? (input.seed ?? randomInt(0, 2147483647)) : null;
  const drawn = seed === null ? [] : drawPages(others, chosen, input.random, seed);
  const sample: SamplePage[] = [
    ...chosen.map((url) => ({ url, source: 'chosen' as const })),
    ...drawn.map((url) => ({ url, source: 'random' as const })),
  ];
  return { sample, seed };
}

export async function createAssessment(ctx: ApiContext, org: string, by: string, input: CreateInput) {
  if (!(await getSite(ctx.db, org, input.siteId))) throw domainErrors.notFound('site');
  const scan = await scanOf(ctx, org, input.siteId, input.scan_id);
  const { sample, seed } = sampleOf(input.sample, await scanPageUrls(ctx.db, scan.id), '#/sample');
  const now = nowIso();
  const a: Assessment = {
    id: newId('asm'),
    org,
    siteId: input.siteId,
    scanId: scan.id,
    title: input.title,
    level: input.standard.level,
    sample,
    seed,
    origin: 'created',
    createdAt: now,
    createdBy: by,
    updatedAt: now,
  };
  await insertAssessment(ctx.db, a);
  ctx.logger.info({ assessment_id: a.id, org, site_id: a.siteId }, 'assessment created');
  return presentAssessment(a, []);
}

export async function requireAssessment(ctx: ApiContext, org: string, id: string): Promise<Assessment> {
  const a = await findAssessment(ctx.db, org, id);
  if (!a) throw domainErrors.notFound('assessment');
  return a;
}

export async function assessmentDetail(ctx: ApiContext, org: string, id: string, notes: string[] = []) {
  const a = await requireAssessment(ctx, org, id);
  const results = await listResults(ctx.db, a.id);
  return { ...presentAssessment(a, results), results: results.map(presentResult), notes };
}

export async function listSiteAssessments(
  ctx: ApiContext,
  org: string,
  siteId: string | undefined,
  limit: number,
  after?: { createdAt: string; id: string },
) {
  return listAssessments(ctx.db, org, siteId, limit, after);
}

export async function patchAssessment(ctx: ApiContext, org: string, id: string, input: PatchInput) {
  const a = await requireAssessment(ctx, org, id);
  let { sample, seed } = a;
  if (input.sample) {
    if (!a.scanId) {
      throw domainErrors.invalid([
        { pointer: '#/sample', detail: 'an imported assessment has no scan to sample from' },
      ]);
    }
    ({ sample, seed } = sampleOf(input.sample, await scanPageUrls(ctx.db, a.scanId), '#/sample'));
  }
  const updatedAt = nowIso();
  await ctx.db.transaction(async (trx) => {
    await updateAssessment(trx, org, id, { title: input.title ?? a.title, sample, seed, updatedAt });
  });
  return assessmentDetail(ctx, org, id);
}

export async function removeAssessment(ctx: ApiContext, org: string, id: string): Promise<void> {
  const gone = await ctx.db.transaction((trx) => deleteAssessment(trx, org, id));
  if (!gone) throw domainErrors.notFound('assessment');
}

/**
 * How many different pages (addresses) the latest full base-branch scan of the site has (0 without a
 * scan): the most a sample can draw.
 */
export async function pagesToSample(ctx: ApiContext, org: string, siteId: string): Promise<number> {
  try {
    const scan = await scanOf(ctx, org, siteId, undefined);
    return sampleCandidates(await scanPageUrls(ctx.db, scan.id), []).others.length;
  } catch {
    return 0;
  }
}
