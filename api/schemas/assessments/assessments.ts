import {
  ASSESSMENT_LEVELS,
  ASSESSMENT_ORIGINS,
  MAX_PAGE_URL,
  MAX_SAMPLE,
  OUTCOMES,
} from '../../domain/vpat/assessments/assessment.js';
import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { PageQuery, pageOf, SiteId, Timestamp } from '../common.js';
import { z } from '../zod.js';

const Text = (max: number) => z.string().trim().min(1).max(max).refine(isNulFree, NUL_MESSAGE);
const PageUrl = Text(MAX_PAGE_URL).openapi({ description: 'A page as the scan names it (its URL).' });

export const SampleInput = z
  .object({
    pages: z.array(PageUrl).max(MAX_SAMPLE).default([]).openapi({ description: 'Pages a person chose.' }),
    random: z.number().int().min(0).max(MAX_SAMPLE).default(0).openapi({
      description: 'How many more pages to draw at random from the scan’s other pages.',
    }),
    seed: z.number().int().min(0).max(2147483647).optional().openapi({
      description: 'The seed of the draw (default: a new one); recorded, so the draw can be repeated.',
    }),
  })
  .strict();

export const CreateAssessmentBody = z
  .object({
    siteId: SiteId,
    title: Text(200),
    standard: z.object({ wcag: z.literal('2.2'), level: z.enum(ASSESSMENT_LEVELS) }).strict(),
    scan_id: z.string().min(1).max(100).optional().openapi({
      description:
        'The scan whose pages the sample is drawn from (default: the latest full scan of the base branch).',
    }),
    sample: SampleInput,
  })
  .strict()
  .openapi('CreateAssessment');

export const PatchAssessmentBody = z
  .object({ title: Text(200).optional(), sample: SampleInput.optional() })
  .strict()
  .refine((b) => b.title !== undefined || b.sample !== undefined, { message: 'give title or sample' })
  .openapi('PatchAssessment');

export const AssessmentResultSchema = z
  .object({
    criterion: z.string(),
    page: z.string().nullable().openapi({ description: 'null: the result stands for the whole sample.' }),
    outcome: z.enum(OUTCOMES),
    notes: z.string(),
    tester: z.string(),
    version: z.number().int(),
    etag: z.string().openapi({ description: 'Send it back as If-Match to change this result.' }),
    updated_at: Timestamp,
  })
  .openapi('AssessmentResult');

export const Progress = z.object({
  criteria: z.number().int(),
  decided: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  inapplicable: z.number().int(),
});

export const AssessmentSchema = z
  .object({
    id: z.string().openapi({ example: 'asm_8Jd0aQ3mZr5Tn2Xb7LkP' }),
    siteId: z.string(),
    scan_id: z.string().nullable(),
    title: z.string(),
    standard: z.object({ wcag: z.literal('2.2'), level: z.enum(ASSESSMENT_LEVELS) }),
    sample: z.object({
      pages: z.array(z.object({ url: z.string(), source: z.enum(['chosen', 'random']) })),
      seed: z.number().int().nullable(),
    }),
    origin: z.enum(ASSESSMENT_ORIGINS),
    progress: Progress,
    created_at: Timestamp,
    created_by: z.string(),
    updated_at: Timestamp,
  })
  .openapi('Assessment');

export const AssessmentDetail = AssessmentSchema.extend({
  results: z.array(AssessmentResultSchema),
  notes: z.array(z.string()).openapi({ description: 'What an import read but did not count.' }),
}).openapi('AssessmentDetail');

export const AssessmentList = pageOf(AssessmentSchema, 'AssessmentList');
export const AssessmentListQuery = PageQuery.extend({ siteId: SiteId.optional() });

export const AssessmentFormatQuery = z.object({
  format: z.enum(['json', 'earl']).default('json').openapi({
    description:
      '`json` (default) or `earl`: EARL in JSON-LD, as W3C’s WCAG-EM Report Tool saves and opens it.',
  }),
});

export const ResultParams = z.object({
  id: z.string().min(1).max(100),
  criterion: z.string().min(1).max(20).openapi({ example: '1.4.3' }),
});

export const PutResultBody = z
  .object({
    page: PageUrl.nullable().openapi({ description: 'A sampled page, or null for the whole sample.' }),
    outcome: z.enum(OUTCOMES).openapi({ description: 'EARL’s outcome values.' }),
    notes: z.string().max(5000).refine(isNulFree, NUL_MESSAGE).default(''),
    tester: Text(200),
  })
  .strict()
  .openapi('PutAssessmentResult');

export const ImportQuery = z.object({ siteId: SiteId });

export const ResultChangeSchema = z.object({
  page: z.string().nullable(),
  before: z.object({ outcome: z.enum(OUTCOMES), notes: z.string(), tester: z.string() }).nullable(),
  after: z.object({ outcome: z.enum(OUTCOMES), notes: z.string(), tester: z.string() }),
  by: z.string(),
  at: Timestamp,
});

export const CriterionWorkspace = z
  .object({
    criterion: z.string(),
    title: z.string(),
    level: z.string(),
    url: z.string(),
    procedure: z.object({ check: z.string(), how: z.string(), tools: z.string(), fails: z.string() }),
    automated: z.array(
      z.object({ page: z.string(), rule: z.string(), kind: z.string(), issues: z.number().int() }),
    ),
    review_items: z.array(
      z.object({
        page: z.string(),
        rule: z.string(),
        selector: z.string().nullable(),
        message: z.string().nullable(),
        help_url: z.string().nullable(),
      }),
    ),
    results: z.array(AssessmentResultSchema),
    history: z.array(ResultChangeSchema),
  })
  .openapi('AssessmentCriterion');
