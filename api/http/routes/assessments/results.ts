import {
  AssessmentDetail,
  AssessmentResultSchema,
  CriterionWorkspace,
  ImportQuery,
  PutResultBody,
  ResultParams,
} from '../../../schemas/assessments/assessments.js';
import { importAssessment } from '../../../services/assessments/exchange.js';
import {
  importTooDeep,
  importTooManyValues,
  MAX_IMPORT_DEPTH,
  MAX_IMPORT_VALUES,
} from '../../../domain/vpat/assessments/import-bounds.js';
import { criterionWorkspace, putResult } from '../../../services/assessments/results.js';
import type { ApiContext } from '../../../context.js';
import { z } from '../../../schemas/zod.js';
import { JsonTooDeep, JsonTooManyValues, parseJsonInTurns } from '../../body/json-turns.js';
import { problems } from '../../problem.js';
import { defineRoute, type AnyRoute } from '../../route.js';
import { actorName } from './assessments.js';

export function assessmentResultRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'put',
      path: '/api/v1/assessments/:id/results/:criterion',
      tag: 'Assessments',
      summary: 'Record a result for a criterion on a sampled page (or the whole sample)',
      description:
        'Outcomes are EARL’s. Every result carries an `ETag`; send it as `If-Match` and a write made in between is ' +
        'not overwritten: the answer is `412` with the `current` result. Without `If-Match` the last writer wins. ' +
        'Every change is kept as the result’s history.',
      access: 'manage',
      params: ResultParams,
      body: PutResultBody,
      responses: {
        200: { description: 'The result.', schema: AssessmentResultSchema, headers: { ETag: '' } },
      },
      handler: async ({ params, body, org, principal, req }) => {
        const result = await putResult(ctx, org, params, body, req.get('if-match'), actorName(principal));
        return { status: 200, headers: { ETag: result.etag }, body: result };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/assessments/:id/criteria/:criterion',
      tag: 'Assessments',
      summary: 'One criterion as a tester works on it',
      description:
        'The test procedure, the automated evidence on the sampled pages, axe-core’s needs-review (`incomplete`) ' +
        'results there as review items, the results and their history.',
      access: ['manage', 'read'],
      params: ResultParams,
      responses: { 200: { description: 'The criterion.', schema: CriterionWorkspace } },
      handler: async ({ params, org }) => ({
        status: 200,
        body: await criterionWorkspace(ctx, org, params.id, params.criterion),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/assessments/import',
      tag: 'Assessments',
      summary: 'Import an evaluation saved by another tool as an assessment',
      description:
        'The body is the exported file itself; its format is recognised from its content: EARL in JSON-LD (a WCAG-EM ' +
        'Report Tool evaluation, its `@graph` export and earlier ones, or another tool’s assertions), read by meaning ' +
        'after expansion with no network access, or an Accessibility Insights for Web assessment (`.a11ywebassessment`, ' +
        'versioned and earlier files). `400` malformed JSON, `413` over the size limit, `422` a file that is no known ' +
        'export, not valid JSON-LD, names a context that is not shipped with the service, holds no result or names a ' +
        'criterion WCAG does not have (with pointers). Nothing is stored on a refusal. ' +
        'An import is bounded like creating the assessment: `422` naming the limit past `pages_per_assessment` (500 ' +
        'pages), `results_per_import`, `json_ld_terms_per_import`, `json_depth_per_import` or `json_values_per_import` (the last two counted ' +
        'before the file is parsed), and `422` for a page URL over 2,000 characters.',
      access: 'manage',
      // A file of up to body_bytes is parsed in turns, then counted, mapped and written: a heavy write.
      queued: true,
      query: ImportQuery,
      body: z.record(z.string(), z.unknown()).openapi({ description: 'The exported file.' }),
      rawBody: true,
      responses: {
        201: { description: 'The assessment.', schema: AssessmentDetail, headers: { Location: '' } },
      },
      handler: async ({ query, org, principal, req }) => {
        const doc = await readImport(req.rawBody ?? Buffer.alloc(0));
        const view = await importAssessment(ctx, org, query.siteId, doc, actorName(principal));
        return { status: 201, headers: { Location: `/api/v1/assessments/${view.id}` }, body: view };
      },
    }),
  ];
}

/** The file, parsed in turns (a large one never holds the server), its depth and size refused before parsing. */
async function readImport(body: Buffer): Promise<unknown> {
  try {
    return await parseJsonInTurns(body, { maxDepth: MAX_IMPORT_DEPTH, maxValues: MAX_IMPORT_VALUES });
  } catch (err) {
    if (err instanceof JsonTooDeep) throw importTooDeep();
    if (err instanceof JsonTooManyValues) throw importTooManyValues();
    throw problems.malformedJson();
  }
}
