import { IdParam } from '../../../schemas/common.js';
import {
  CreateStatementBody,
  PublishStatementBody,
  StatementFormatQuery,
  StatementList,
  StatementListQuery,
  UpdateStatementBody,
} from '../../../schemas/statement/requests.js';
import { StatementSchema } from '../../../schemas/statement/statement.js';
import { z } from '../../../schemas/zod.js';
import { exportStatement } from '../../../services/statement/exports.js';
import { StatementService, type StatementActor } from '../../../services/statement/statements.js';
import { presentStatementListItem } from '../../../services/statement/views.js';
import type { ApiContext, Principal } from '../../../context.js';
import { newestFirstPage } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const TAG = 'Accessibility statements';

const actor = (principal: Principal): StatementActor =>
  principal.kind === 'key'
    ? { keyId: principal.keyId, name: principal.name }
    : { keyId: null, name: 'admin' };

/** Drafts, answers, publication and the formats of a site's accessibility statement (docs/statement.md). */
export function statementRoutes(ctx: ApiContext): AnyRoute[] {
  const statements = new StatementService(ctx);
  return [...readRoutes(statements), ...writeRoutes(statements)];
}

/** A site's versions, and one version in each format. */
function readRoutes(statements: StatementService): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/statements',
      tag: TAG,
      summary: 'List a site’s statement versions, newest first',
      access: 'read',
      query: StatementListQuery,
      responses: {
        200: { description: 'Versions, newest first.', schema: StatementList, headers: { Link: '' } },
      },
      handler: ({ query, req, org }) =>
        newestFirstPage(
          req,
          query,
          (limit, after) => statements.list(org, query.siteId, limit, after),
          (r) => [r.createdAt, r.id],
          presentStatementListItem,
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/statements/:id',
      tag: TAG,
      summary: 'A statement version: JSON, or ?format=html | md | eaa',
      description:
        '`html` is one self-contained, printable page; `md` the same as Markdown; `eaa` the service information the ' +
        'European Accessibility Act asks for (Annex V), written from the same evidence. JSON follows ' +
        'docs/statement.schema.json. A draft shows what is still to be answered.',
      access: 'read',
      params: IdParam,
      query: StatementFormatQuery,
      responses: {
        200: {
          description: 'The statement in the requested format.',
          schema: StatementSchema,
          content: { 'text/html': z.string(), 'text/markdown': z.string() },
        },
      },
      handler: async ({ params, query, org }) => {
        const s = await statements.find(org, params.id);
        if (query.format === 'json') return { status: 200, body: s };
        const out = exportStatement(s, query.format);
        return { status: 200, body: out.body, contentType: out.contentType };
      },
    }),
  ];
}

/** A draft made, answered and published. */
function writeRoutes(statements: StatementService): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/statements',
      tag: TAG,
      summary: 'Make a draft accessibility statement from a published report (the site’s next version)',
      description:
        'The compliance status, the non-accessible content (failing criteria with their pages, and the site’s active ' +
        'waivers under their reason categories) and how it was prepared come from the report; the answers no evidence ' +
        'gives start from the previous version’s. 422 when the report is a draft or of another site, or the site has ' +
        'no published report; 409 while the site’s newest version is still a draft.',
      access: 'manage',
      body: CreateStatementBody,
      responses: {
        201: { description: 'The draft.', schema: StatementSchema, headers: { Location: '' } },
      },
      handler: async ({ body, org, principal }) => {
        const s = await statements.create(org, actor(principal), body);
        return { status: 201, headers: { Location: `/api/v1/statements/${s.id}` }, body: s };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/statements/:id',
      tag: TAG,
      summary: 'Answer a draft’s questions (or make it from another final report)',
      description:
        'Each answer given replaces the stored one, `null` clears it, an absent one stays. The evidence is read ' +
        'again. 409 for a final statement.',
      access: 'manage',
      params: IdParam,
      body: UpdateStatementBody,
      responses: { 200: { description: 'The draft as it now is.', schema: StatementSchema } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: await statements.update(org, params.id, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/statements/:id/publish',
      tag: TAG,
      summary: 'Publish a draft: the version becomes final, with the publisher and its review dates',
      description:
        '422 listing the missing answers (`errors[].pointer` = `#/answers/<field>`) while any is left; 409 when the ' +
        'version is already final. Records `statement.published`.',
      access: 'manage',
      params: IdParam,
      body: PublishStatementBody,
      responses: { 200: { description: 'The final version.', schema: StatementSchema } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: await statements.publish(org, params.id, body.publisher),
      }),
    }),
  ];
}
