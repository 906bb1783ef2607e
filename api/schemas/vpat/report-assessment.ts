import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { z } from '../zod.js';

/** Where a report row's answer comes from (api/domain/vpat/report.ts, `AnswerSource`). */
export const AnswerSourceField = z.enum(['evidence', 'override', 'default', 'assessment']).openapi({
  description:
    '`evidence`: derived from the scan; `override`: a named person’s answer; `default`: decided by the VPAT rules ' +
    '(4.1.1 Parsing) or a chapter default for a website (e.g. Hardware: not applicable); `assessment`: the ' +
    'results of people testing the sampled pages (an assessment).',
});

/** `assessment_id` of a report's generation. */
export const AssessmentIdField = z
  .string()
  .min(1)
  .max(100)
  .refine(isNulFree, NUL_MESSAGE)
  .optional()
  .openapi({
    description:
      'The assessment whose human results the report follows (default: the site’s newest assessment, if any). ' +
      'An assessment of another site answers 422.',
  });

/** The assessment whose human results a report used (api/domain/vpat/report.ts, `ReportAssessment`). */
export const ReportAssessmentSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    sample: z.array(z.string()).openapi({ description: 'The sampled pages by their public paths.' }),
    testers: z.array(z.string()),
    changes_through: z.number().int().optional().openapi({
      description:
        'How far into the assessment’s changes the report read (the last change’s number; 0: none): results changed after it are newer than the report.',
    }),
  })
  .openapi('VpatAssessment', { description: 'The assessment whose human results the report used.' });

/** `developer_links`: whether remarks keep the developers' "How to fix" links. */
export const DeveloperLinksField = z.boolean().optional().openapi({
  description:
    'Keep the developers’ “How to fix” links in the remarks (default: left out, the report is for customers).',
});

/** `product.url` of a report's generation. */
export const ProductUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .optional()
  .openapi({
    description:
      'The product’s public address, named in the report (never the host a CI job scanned); default: the site’s `url`.',
    example: 'https://shop.example/',
  });

/** A row's suggestion (api/domain/vpat/not-applicable.ts): never an answer; only a person answers. */
export const Suggestion = z
  .object({
    conformance: z.literal('not-applicable'),
    rules: z.array(z.string()),
    pages: z.number().int(),
    reason: z.string(),
  })
  .optional()
  .openapi({
    description:
      'Present on a row waiting for a person when the rules that test it ran on every page and found nothing to test there (axe-core’s `inapplicable`): the evidence suggests Not Applicable; only a review answers it.',
  });

/** Newer evidence than a report version (api/domain/vpat/report.ts, `ReportBehind`). */
export const ReportBehindSchema = z
  .object({
    results: z.number().int().openapi({
      description: 'Results of the assessment recorded or changed after the version was made.',
    }),
    scans: z.number().int().openapi({ description: 'Scans of the site’s base branch newer than its scan.' }),
  })
  .openapi('VpatBehind');

export const ReportBehindStateSchema = ReportBehindSchema.extend({
  assessment_id: z.string().nullable(),
  latest_scan_id: z.string().nullable(),
  summary: z.string().openapi({ example: '7 new results, 1 newer scan' }),
}).openapi('VpatBehindState', {
  description:
    'Evidence newer than this version (`GET /api/v1/vpat/{id}` only, read when asked): results of the report’s assessment (else the site’s newest) changed since it was made, and newer scans of the base branch. `POST /api/v1/vpat/{id}/refresh` makes the next version from them.',
});
