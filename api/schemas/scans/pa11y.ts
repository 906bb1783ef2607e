import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { z } from '../zod.js';
import { Identifier, NullableString } from './fields.js';
import { ImpactSchema } from './output.js';

/** pa11y's result for one page, as a scan's page may carry it. */

export const Pa11yIssue = z.object({
  // The rule of the stored issue (a 200-character column).
  code: Identifier(200),
  type: z.string().max(50).optional(),
  typeCode: z.number().int().optional(),
  message: NullableString,
  context: NullableString,
  selector: NullableString,
  runner: z.string().max(100).optional(),
  runnerExtras: z
    .object({
      impact: ImpactSchema.nullable().optional(),
      helpUrl: NullableString,
      help: NullableString,
      description: NullableString,
    })
    .partial()
    .optional(),
});

export const Pa11yInputSchema = z
  .union([
    z.array(Pa11yIssue),
    z.object({
      documentTitle: NullableString,
      pageUrl: z.string().max(4096).refine(isNulFree, NUL_MESSAGE).nullable().optional(),
      issues: z.array(Pa11yIssue),
    }),
  ])
  .openapi('Pa11yResults', {
    description:
      "pa11y's result for this page: its `issues` array, or the whole `{documentTitle, pageUrl, issues}` " +
      'object. axe runner: `code` is the rule, `runnerExtras.impact` the impact. HTML_CodeSniffer runner: ' +
      'the code gives the WCAG criterion, error/warning/notice give impact serious/moderate/minor, and ' +
      'warnings and notices are kind `incomplete` (they ask for a human check).',
  });
