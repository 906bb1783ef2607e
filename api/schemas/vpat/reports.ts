import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { CONFORMANCE_LEVELS, EDITIONS } from '../../domain/vpat/editions.js';
import { WCAG_LEVELS, WCAG_VERSIONS } from '../../domain/catalog/wcag.js';
import { SiteId, Timestamp } from '../common.js';
import { z, type OutputIs } from '../zod.js';
import type * as act from '../../domain/catalog/act-relations.js';
import type * as report from '../../domain/vpat/report.js';
import { AgentFixSchema } from './agent-fixes.js';
import * as fields from './report-assessment.js';

export const ConformanceLevel = z.enum(CONFORMANCE_LEVELS).openapi('ConformanceLevel', {
  description:
    'The five VPAT® 2.5 conformance terms. `not-evaluated` is allowed in a final VPAT only for Level AAA.',
});

// PostgreSQL text cannot hold U+0000: refused here, as a 422, before it reaches SQL.
export const Text = (max: number) => z.string().trim().min(1).max(max).refine(isNulFree, NUL_MESSAGE);

export const ProductContactSchema = z
  .object({
    name: Text(200).optional(),
    email: z.email().max(320).optional(),
    phone: Text(100).optional(),
    website: z.url().max(2048).optional(),
    address: Text(500).optional(),
  })
  .strict()
  .openapi('ProductContact');

export const Product = z
  .object({
    name: Text(200),
    version: Text(100),
    vendor: Text(200).optional(),
    description: Text(2000).optional(),
    url: fields.ProductUrl,
    contact: z
      .union([Text(320), ProductContactSchema])
      .optional()
      .openapi({
        description:
          'Who to contact about the report: an object, or one string (an e-mail address, else a name). ' +
          'The e-mail is the OpenACR `author.email`.',
      }),
  })
  .openapi('VpatProduct');

export const OverrideBody = z
  .object({
    criterion: Text(20).openapi({
      description:
        'A row id of the report: a WCAG criterion (`1.4.3`) or a 508 / EN 301 549 clause (`302.1`).',
      example: '1.2.2',
    }),
    conformance: ConformanceLevel,
    remarks: Text(5000).openapi({
      description: 'Required: the reviewer’s explanation, shown in the report.',
    }),
    author: Text(200).openapi({
      description:
        'Required: the person who decided, by name (not a key’s). Only a person grants a level, so an override without one is refused (422 naming `#/overrides/<i>/author`).',
      example: 'Ada Reviewer',
    }),
  })
  .strict()
  .openapi('VpatOverrideInput');

export const GenerateVpatBody = z
  .object({
    siteId: SiteId,
    scan_id: z.string().min(1).max(100).optional().openapi({
      description:
        'Default: the latest full scan of the site on its base branch (a partial scan is never picked).',
    }),
    product: Product,
    edition: z.enum(EDITIONS).default('wcag').openapi({
      description:
        'VPAT® 2.5 edition: `wcag`, `508` (Revised Section 508), `eu` (EN 301 549) or `int` (all).',
    }),
    wcag_version: z.enum(WCAG_VERSIONS).default('2.2'),
    level: z
      .enum(WCAG_LEVELS)
      .default('AA')
      .openapi({ description: 'Highest WCAG level reported (AA = A and AA).' }),
    evaluation_methods: Text(5000)
      .optional()
      .openapi({ description: 'Default: a sentence describing the automated scan the report is based on.' }),
    overrides: z.array(OverrideBody).max(500).default([]),
    inherit_overrides_from: z
      .string()
      .min(1)
      .max(100)
      .refine(isNulFree, NUL_MESSAGE)
      .optional()
      .openapi({
        description:
          'A report id of the same site: its overrides are carried forward (with their authors and times) unless this request overrides the same criterion. ' +
          'A report of another site answers 422.',
      }),
    assessment_id: fields.AssessmentIdField,
    developer_links: fields.DeveloperLinksField,
  })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.overrides.forEach((o, i) => {
      if (seen.has(o.criterion)) {
        ctx.addIssue({
          code: 'custom',
          path: ['overrides', i, 'criterion'],
          message: 'criterion is overridden twice',
        });
      }
      seen.add(o.criterion);
    });
  })
  .openapi('GenerateVpat');

export const RelatedFailureSchema = z
  .object({
    rule: z.string().openapi({ description: 'The failing axe-core rule.' }),
    act_rule: z.string().openapi({ description: 'The W3C ACT rule it implements.' }),
    act_name: z.string(),
    role: z.enum(['primary', 'secondary']).openapi({ description: 'The criterion’s role in the ACT rule.' }),
    issues: z.number().int(),
    pages_affected: z.number().int(),
  })
  .openapi('VpatRelatedFailure', {
    description:
      'A violation of an axe-core rule that W3C’s ACT rules relate to this criterion, while the scan attributed it to other criteria.',
  });

export const AppliedOverrideSchema = z
  .object({
    criterion: z.string(),
    kind: z.enum(['level', 'confirm']).optional().openapi({
      description:
        '`level`: a person granted the conformance level; `confirm`: a person confirmed the automated evidence (rules-passed), granting supports.',
    }),
    conformance: ConformanceLevel,
    remarks: z.string(),
    author: z.string(),
    author_key_id: z.string().nullable(),
    created_at: Timestamp,
    inherited_from: z
      .string()
      .nullable()
      .openapi({ description: 'The report the override was carried from.' }),
    stale: z.boolean().openapi({ description: 'True when this report’s evidence contradicts the override.' }),
    stale_reason: z.string().nullable(),
    related_failures: z.array(RelatedFailureSchema).openapi({
      description: 'Failures W3C relates to the criterion that the person answered over, knowingly.',
    }),
  })
  .openapi('VpatOverride');

export const CriterionEvidenceSchema = z
  .object({
    rules: z.array(z.string()),
    issues: z
      .number()
      .int()
      .openapi({ description: 'Violations, waived ones included (a waiver is not conformance).' }),
    pages_affected: z.number().int(),
    pages_total: z.number().int(),
    incomplete: z
      .number()
      .int()
      .openapi({ description: 'Results axe-core could not decide (needs review).' }),
    waived: z.number().int().nullable(),
    help_urls: z.array(z.string()),
  })
  .openapi('VpatEvidence');

export const ReportCriterionSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    level: z.enum(WCAG_LEVELS).nullable(),
    chapter: z.string(),
    conformance: ConformanceLevel,
    remarks: z.string(),
    source: fields.AnswerSourceField,
    basis: z.enum([
      'violations',
      'incomplete',
      'rules-passed',
      'rule-results-elsewhere',
      'rules-not-run',
      'no-coverage',
      'no-pages',
      'vpat-instructions',
      'chapter-default',
      'override',
      'confirmed',
      'human-tested',
    ]),
    needs_review: z.boolean(),
    evidence: CriterionEvidenceSchema,
    related: z.array(RelatedFailureSchema),
    override: AppliedOverrideSchema.optional(),
    suggestion: fields.Suggestion,
    agent_fixes: z.array(AgentFixSchema).optional(),
  })
  .openapi('VpatCriterion');

const RuleViolations = z
  .object({ rule: z.string(), issues: z.number().int(), pages_affected: z.number().int() })
  .openapi('VpatRuleViolations');

const ByConformance = z.object(
  Object.fromEntries(CONFORMANCE_LEVELS.map((c) => [c, z.number().int()])) as Record<
    (typeof CONFORMANCE_LEVELS)[number],
    z.ZodNumber
  >,
);
export const VpatReportSchema = z
  .object({
    id: z.string().openapi({ example: 'vpt_7Gk2m9QxL0aZb3Rt5WcY' }),
    siteId: z.string(),
    scan_id: z.string(),
    status: z.enum(['draft', 'final']).openapi({
      description:
        '`draft` until a version with no undecided row is published; `final` for the published version.',
    }),
    version: z
      .number()
      .int()
      .openapi({ description: '1 when generated; each review or publication adds one.' }),
    previous_id: z.string().nullable().openapi({ description: 'The version this one was made from.' }),
    published: z
      .object({ by: z.string(), at: Timestamp, behind: fields.ReportBehindSchema.optional() })
      .nullable()
      .openapi({
        description:
          'Who published the final version, and when; `behind`: the newer evidence it was published without (`publish_behind`).',
      }),
    title: z.string(),
    product: z.object({
      name: z.string(),
      version: z.string(),
      vendor: z.string().optional(),
      description: z.string().optional(),
      url: z.string().optional(),
      contact: ProductContactSchema.optional(),
    }),
    edition: z.enum(EDITIONS),
    wcag_version: z.enum(WCAG_VERSIONS),
    level: z.enum(WCAG_LEVELS),
    catalog: z.string().openapi({
      description:
        'The published OpenACR catalog that holds every row of this report (GSA publishes VPAT 2.5 catalogs only for some edition/version pairs).',
    }),
    evaluation_methods: z.string(),
    standards: z.array(z.object({ id: z.string(), label: z.string(), url: z.string() })),
    chapters: z.array(
      z.object({ id: z.string(), standard: z.string(), label: z.string(), note: z.string().nullable() }),
    ),
    criteria: z.array(ReportCriterionSchema),
    overrides: z.array(AppliedOverrideSchema),
    summary: z.object({
      by_conformance: ByConformance,
      needs_review: z.number().int(),
      undecided: z.number().int().openapi({ description: 'Rows still lacking a person’s decision.' }),
      stale_overrides: z.number().int(),
    }),
    violations: z.array(RuleViolations),
    scan: z.object({
      id: z.string(),
      url: z.string(),
      sha: z.string().nullable(),
      branch: z.string().nullable(),
      engine: z.object({ name: z.string().nullable(), version: z.string().nullable() }),
      pages: z.number().int().openapi({
        description:
          'Different pages tested: a URL scanned at several viewports, or `/` and `/index.html`, counts once.',
      }),
      issues: z.number().int(),
      rules_run: z.array(z.string()).nullable(),
      created_at: Timestamp,
    }),
    developer_links: fields.DeveloperLinksField,
    assessment: fields.ReportAssessmentSchema.optional(),
    warnings: z.array(z.string()),
    created_by: z.object({ key_id: z.string().nullable(), name: z.string() }),
    created_at: Timestamp,
    behind: fields.ReportBehindStateSchema.optional(),
  })
  .openapi('VpatReport');
// The domain's types (named alike) are what these schemas produce, exactly.
type _DomainTypes = [
  OutputIs<typeof RelatedFailureSchema, act.RelatedFailure>,
  OutputIs<typeof AppliedOverrideSchema, report.AppliedOverride>,
  OutputIs<typeof CriterionEvidenceSchema, report.CriterionEvidence>,
  OutputIs<typeof ReportCriterionSchema, report.ReportCriterion>,
  OutputIs<typeof ProductContactSchema, report.ProductContact>,
  OutputIs<typeof VpatReportSchema, report.VpatReport>,
  OutputIs<typeof fields.ReportBehindStateSchema, report.ReportBehindState>,
];
