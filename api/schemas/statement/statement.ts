import { WCAG_LEVELS, WCAG_VERSIONS } from '../../domain/catalog/wcag.js';
import { CONFORMANCE_LEVELS, EDITIONS } from '../../domain/vpat/editions.js';
import {
  COMPLIANCE_STATUSES,
  PREPARATION_METHODS,
  type AccessibilityStatement,
  type AnswerField,
  type StatementAnswers,
} from '../../domain/statement/statement.js';
import { Timestamp } from '../common.js';
import { AnswerSourceField } from '../vpat/report-assessment.js';
import { WaiverReasonCategorySchema } from '../waivers/waivers.js';
import { z, type OutputIs } from '../zod.js';

/**
 * The statement as `GET /api/v1/statements/:id` answers it (api/domain/statement/statement.ts). The OpenAPI
 * document publishes it, and docs/statement.schema.json is the same schema as a JSON Schema of its own.
 */

const Day = z.string().openapi({ format: 'date', example: '2027-11-24' });

export const ComplianceStatusSchema = z.enum(COMPLIANCE_STATUSES).openapi('StatementComplianceStatus', {
  description:
    '`fully`, `partially` or `not` compliant, worked out from the report’s rows by the rule in docs/statement.md.',
});

export const PreparationMethodSchema = z.enum(PREPARATION_METHODS).openapi('StatementPreparationMethod', {
  description: 'How the statement was prepared: a `self-assessment`, or an assessment by a `third-party`.',
});

export const StatementAnswersSchema = z
  .object({
    entity: z.string().nullable().openapi({ description: 'The organisation responsible for the service.' }),
    feedback: z.string().nullable().openapi({
      description: 'How people report an accessibility problem or ask for content in an accessible form.',
    }),
    contact_email: z.string().nullable(),
    contact_phone: z.string().nullable(),
    contact_url: z.string().nullable(),
    enforcement_body: z.string().nullable().openapi({
      description: 'The body that enforces the applicable legislation.',
    }),
    enforcement_url: z.string().nullable(),
    alternatives: z.string().nullable().openapi({
      description: 'Accessible alternatives to the content that is not accessible.',
    }),
    method: PreparationMethodSchema,
    evaluator: z.string().nullable().openapi({
      description:
        'The third party that evaluated the service (default: the testers of the report’s assessment).',
    }),
    next_review_on: Day.nullable().openapi({
      description: 'An earlier next review than a year after publication; not carried to the next version.',
    }),
  })
  .openapi('StatementAnswers', { description: 'What a person answers: what no evidence can say.' });

const Counts = z.object(
  Object.fromEntries(CONFORMANCE_LEVELS.map((c) => [c, z.number().int()])) as Record<
    (typeof CONFORMANCE_LEVELS)[number],
    z.ZodNumber
  >,
);

const ComplianceSchema = z
  .object({
    status: ComplianceStatusSchema,
    standard: z.object({
      label: z.string(),
      url: z.string(),
      edition: z.enum(EDITIONS),
      wcag_version: z.enum(WCAG_VERSIONS),
      level: z.enum(WCAG_LEVELS),
    }),
    reasons: z.array(z.string()).openapi({ description: 'Why the status is what it is, in sentences.' }),
    counted: Counts.openapi({
      description: 'The rows the rule counts (Level A and AA, and EN 301 549’s own clauses), by conformance.',
    }),
    principles: z.array(
      z.object({
        id: z.enum(['1', '2', '3', '4']),
        name: z.enum(['Perceivable', 'Operable', 'Understandable', 'Robust']),
        by_conformance: Counts,
        failing: z.array(z.string()),
      }),
    ),
  })
  .openapi('StatementCompliance');

const FailingCriterionSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    level: z.enum(WCAG_LEVELS).nullable(),
    conformance: z.enum(['partially-supports', 'does-not-support']),
    source: AnswerSourceField,
    remarks: z.string(),
    rules: z.array(z.string()),
    pages: z.array(z.string()).openapi({ description: 'Public paths of the first pages where it fails.' }),
    pages_affected: z.number().int(),
    issues: z.number().int(),
    waived: z.number().int(),
  })
  .openapi('StatementFailingCriterion');

const StatementWaiverSchema = z
  .object({
    id: z.string(),
    rule: z.string(),
    selector: z.string().nullable(),
    url_pattern: z.string().nullable(),
    fingerprint: z.string().nullable(),
    reason: z.string(),
    category: WaiverReasonCategorySchema,
    expires_at: Timestamp.nullable().openapi({
      description: 'For non-compliance, the date the content is to be fixed by.',
    }),
    criteria: z.array(z.string()),
  })
  .openapi('StatementWaiver');

const EvidenceSchema = z.object({
  report: z.object({
    id: z.string(),
    version: z.number().int(),
    title: z.string(),
    published: z.object({ by: z.string(), at: Timestamp }),
  }),
  scan: z.object({ id: z.string(), url: z.string(), pages: z.number().int(), created_at: Timestamp }),
  assessment: z.object({ id: z.string(), title: z.string(), testers: z.array(z.string()) }).nullable(),
});

export const StatementSchema = z
  .object({
    id: z.string().openapi({ example: 'stm_4Hq8Zr2LmX0aT7cW9bNd' }),
    siteId: z.string(),
    version: z.number().int(),
    previous_id: z.string().nullable(),
    status: z
      .enum(['draft', 'final'])
      .openapi({ description: '`final` once published; never changed again.' }),
    published: z
      .object({ by: z.string(), at: Timestamp })
      .nullable()
      .openapi({ description: 'The name the publisher typed, and when.' }),
    answers: StatementAnswersSchema,
    missing: z
      .array(
        z.object({
          field: z.enum(Object.keys(StatementAnswersSchema.shape) as [AnswerField, ...AnswerField[]]),
          question: z.string(),
        }),
      )
      .openapi({ description: 'Answers publishing still needs.' }),
    scope: z.object({
      service: z.string(),
      version: z.string(),
      description: z.string().nullable(),
      url: z.string().nullable(),
    }),
    compliance: ComplianceSchema,
    non_accessible: z.object({
      non_compliance: z.object({
        criteria: z.array(FailingCriterionSchema),
        waivers: z.array(StatementWaiverSchema),
      }),
      disproportionate_burden: z.array(StatementWaiverSchema),
      outside_scope: z.array(StatementWaiverSchema),
    }),
    preparation: z.object({
      prepared_on: Day.nullable(),
      method: PreparationMethodSchema,
      evaluator: z.string().nullable(),
      evidence: EvidenceSchema,
      last_reviewed_on: Day.nullable(),
      next_review_on: Day.nullable(),
    }),
    created_by: z.object({ key_id: z.string().nullable(), name: z.string() }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('AccessibilityStatement', {
    description: 'An accessibility statement in the order of the EU model statement (docs/statement.md).',
  });

// The domain's types are what these schemas produce, exactly.
type _DomainTypes = [
  OutputIs<typeof StatementAnswersSchema, StatementAnswers>,
  OutputIs<typeof StatementSchema, AccessibilityStatement>,
];

/** The `data` of `statement.published` and `statement.review_due`. */
export const StatementEventSchema = z
  .object({
    id: z.string(),
    siteId: z.string(),
    version: z.number().int(),
    status: z.enum(['draft', 'final']),
    compliance: ComplianceStatusSchema,
    published: z.object({ by: z.string(), at: Timestamp }).nullable(),
    last_reviewed_on: Day.nullable(),
    next_review_on: Day.nullable(),
  })
  .openapi('StatementEvent');
