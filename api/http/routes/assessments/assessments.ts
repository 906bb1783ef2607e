import { IdParam } from '../../../schemas/common.js';
import {
  AssessmentSchema,
  AssessmentDetail,
  AssessmentFormatQuery,
  AssessmentList,
  AssessmentListQuery,
  CreateAssessmentBody,
  PatchAssessmentBody,
} from '../../../schemas/assessments/assessments.js';
import {
  assessmentDetail,
  createAssessment,
  listSiteAssessments,
  patchAssessment,
  removeAssessment,
} from '../../../services/assessments/assessments.js';
import { assessmentAsEarl } from '../../../services/assessments/exchange.js';
import { presentAssessment } from '../../../services/assessments/present.js';
import type { ApiContext, Principal } from '../../../context.js';
import { z } from '../../../schemas/zod.js';
import { newestFirstPage, pagedResponses } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

/** Who acts: the key's name (the admin token acts as `admin`). */
export const actorName = (p: Principal) => (p.kind === 'key' ? p.name : 'admin');

export function assessmentRoutes(ctx: ApiContext): AnyRoute[] {
  return [...readRoutes(ctx), ...writeRoutes(ctx)];
}

function writeRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/assessments',
      tag: 'Assessments',
      summary: 'Start an assessment of a site: its page sample (WCAG-EM steps 1-3)',
      description:
        'The sample is the pages given plus `random` more drawn from the scan’s other pages with a recorded seed. ' +
        'The scan is `scan_id`, else the latest scan of the site’s base branch. `404` when the site or scan does not exist.',
      access: 'manage',
      body: CreateAssessmentBody,
      responses: {
        201: { description: 'The assessment.', schema: AssessmentSchema, headers: { Location: '' } },
      },
      handler: async ({ body, org, principal }) => {
        const view = await createAssessment(ctx, org, actorName(principal), body);
        return { status: 201, headers: { Location: `/api/v1/assessments/${view.id}` }, body: view };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/assessments/:id',
      tag: 'Assessments',
      summary: 'Change an assessment’s title or sample',
      description:
        'A new sample is drawn again from the same scan; results of pages left out stay stored but count for nothing.',
      access: 'manage',
      params: IdParam,
      body: PatchAssessmentBody,
      responses: { 200: { description: 'The assessment.', schema: AssessmentDetail } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: await patchAssessment(ctx, org, params.id, body),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/assessments/:id',
      tag: 'Assessments',
      summary: 'Delete an assessment with its results and their history',
      description: 'Reports made from it keep what they said.',
      access: 'manage',
      params: IdParam,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ params, org }) => {
        await removeAssessment(ctx, org, params.id);
        return { status: 204 };
      },
    }),
  ];
}

function readRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/assessments',
      tag: 'Assessments',
      summary: 'List assessments, newest first',
      access: ['manage', 'read'],
      query: AssessmentListQuery,
      responses: pagedResponses('Assessments, newest first.', AssessmentList),
      handler: async ({ query, req, org }) =>
        newestFirstPage(
          req,
          query,
          (limit, after) => listSiteAssessments(ctx, org, query.siteId, limit, after),
          (a) => [a.createdAt, a.id],
          // The list shows progress from the sample alone; the detail counts the results.
          (a) => presentAssessment(a, []),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/assessments/:id',
      tag: 'Assessments',
      summary: 'An assessment with its results, or its EARL (format=earl)',
      description:
        '`format=earl` answers EARL in JSON-LD as W3C’s WCAG-EM Report Tool saves it (its `@context`, the WCAG-EM ' +
        'steps, one `earl:Assertion` per criterion with one part per sampled page); the Report Tool opens it.',
      access: ['manage', 'read'],
      params: IdParam,
      query: AssessmentFormatQuery,
      responses: {
        200: {
          description: 'The assessment.',
          schema: AssessmentDetail,
          content: { 'application/ld+json': z.record(z.string(), z.unknown()) },
        },
      },
      handler: async ({ params, query, org }) =>
        query.format === 'earl'
          ? {
              status: 200,
              contentType: 'application/ld+json',
              body: JSON.stringify(await assessmentAsEarl(ctx, org, params.id), null, 2),
            }
          : { status: 200, body: await assessmentDetail(ctx, org, params.id) },
    }),
  ];
}
