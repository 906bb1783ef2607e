import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { PageQuery, SiteId, Timestamp, pageOf } from '../common.js';
import { Text } from '../vpat/reports.js';
import { z } from '../zod.js';
import { PreparationMethodSchema, ComplianceStatusSchema } from './statement.js';

/** What a person sends for a statement: its answers, the report it is made from, its publication. */

const HttpUrl = z.url({ protocol: /^https?$/ }).max(2048);
const Id = z.string().min(1).max(100).refine(isNulFree, NUL_MESSAGE);

/** Each answer given replaces the one stored; `null` clears it; an absent field stays as it is. */
export const StatementAnswersBody = z
  .object({
    entity: Text(200).nullable().openapi({ example: 'Acme Shop GmbH' }),
    feedback: Text(2000).nullable().openapi({
      example: 'Write to us or call us; we answer within five working days.',
    }),
    contact_email: z.email().max(320).nullable().openapi({ example: 'accessibility@shop.example' }),
    contact_phone: Text(100).nullable().openapi({ example: '+49 30 1234567' }),
    contact_url: HttpUrl.nullable().openapi({ example: 'https://shop.example/accessibility/feedback' }),
    enforcement_body: Text(300).nullable().openapi({ example: 'Marktüberwachungsstelle der Länder (MLBF)' }),
    enforcement_url: HttpUrl.nullable().openapi({ example: 'https://www.mlbf-barrierefrei.de/' }),
    alternatives: Text(5000).nullable(),
    method: PreparationMethodSchema,
    evaluator: Text(200).nullable(),
    next_review_on: z.iso.date().nullable().openapi({
      description: 'YYYY-MM-DD: at most a year after the statement is published (default: a year after).',
    }),
  })
  .partial()
  .strict()
  .openapi('StatementAnswersInput');

export const CreateStatementBody = z
  .object({
    siteId: SiteId,
    report_id: Id.optional().openapi({
      description: 'A published (final) report of the site; default: the site’s newest final report.',
    }),
    answers: StatementAnswersBody.default({}).openapi({
      description:
        'Laid over the answers of the site’s previous statement version, which the new one starts from.',
    }),
  })
  .strict()
  .openapi('CreateStatement');

export const UpdateStatementBody = z
  .object({
    report_id: Id.optional().openapi({
      description: 'Make the draft from another final report of the site (its evidence is read again).',
    }),
    answers: StatementAnswersBody.default({}),
  })
  .strict()
  .openapi('UpdateStatement');

export const PublishStatementBody = z
  .object({
    publisher: Text(200).openapi({
      description: 'The name of the person who publishes it, typed by them: recorded as `published.by`.',
      example: 'Grace Officer',
    }),
  })
  .strict()
  .openapi('PublishStatement');

export const StatementFormatQuery = z.object({
  format: z
    .enum(['json', 'html', 'md', 'eaa'])
    .default('json')
    .openapi({
      description:
        '`json` (default), `html` (a printable page), `md` (Markdown), or `eaa` (the European Accessibility Act’s ' +
        'service information as an HTML page).',
    }),
});

export const StatementListQuery = PageQuery.extend({ siteId: SiteId });

export const StatementListItem = z
  .object({
    id: z.string(),
    siteId: z.string(),
    version: z.number().int(),
    previous_id: z.string().nullable(),
    status: z.enum(['draft', 'final']),
    report_id: z.string(),
    compliance: ComplianceStatusSchema,
    missing: z.number().int().openapi({ description: 'Answers publishing still needs.' }),
    published: z.object({ by: z.string(), at: Timestamp }).nullable(),
    next_review_on: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('StatementListItem');

export const StatementList = pageOf(StatementListItem, 'StatementList');

export type StatementAnswersInput = z.output<typeof StatementAnswersBody>;
export type CreateStatementInput = z.output<typeof CreateStatementBody>;
export type UpdateStatementInput = z.output<typeof UpdateStatementBody>;
export type StatementListItem = z.output<typeof StatementListItem>;
