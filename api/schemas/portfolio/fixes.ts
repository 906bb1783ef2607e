import { IMPACTS } from '../../../core/impact.js';
import { FIX_WEIGHTS, MAX_FIX_PAGES } from '../../domain/portfolio/fixes.js';
import { Tag } from '../sites/tags.js';
import { z } from '../zod.js';

export const Top = z.coerce
  .number()
  .int()
  .min(1)
  .max(100)
  .default(5)
  .openapi({ description: 'How many fixes, best first (1-100, default 5).' });

export const SiteFixesQuery = z.object({ top: Top });
export const OrgFixesQuery = z.object({
  top: Top,
  group: Tag.optional().openapi({ description: 'Only the sites carrying this tag.' }),
});

export const FixWeights = z
  .object({
    critical: z.number().int(),
    serious: z.number().int(),
    moderate: z.number().int(),
    minor: z.number().int(),
    unknown: z.number().int(),
  })
  .openapi('FixWeights', {
    description: `What clearing a page weighs, by the highest impact the fix clears on it (${Object.entries(
      FIX_WEIGHTS,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}).`,
  });

export const TopFix = z
  .object({
    siteId: z.string(),
    kind: z.enum(['source', 'markup', 'selector']).openapi({
      description:
        '`source`: the issues located at one `path:line`; `markup`: one rule on the same element markup across ' +
        'pages (a shared component); `selector`: one rule on the same selector, when neither is known.',
    }),
    code: z
      .string()
      .nullable()
      .openapi({
        description:
          "Where to fix it: the file's blob URL on GitHub at the scanned commit when the site names a " +
          'repository, else `path:line`; null unless located.',
      }),
    path: z.string().nullable(),
    line: z.number().int().nullable(),
    markup: z.string().nullable().openapi({
      description: 'The opening tag, attributes sorted and generated names masked (kind `markup`).',
    }),
    selector: z.string().nullable().openapi({ description: "One element's selector." }),
    rules: z.array(z.string()),
    impact: z.enum(IMPACTS).nullable().openapi({ description: 'The highest impact among its issues.' }),
    score: z.number().int().openapi({
      description: 'The sum over its pages of the weight of the highest impact it clears there.',
    }),
    page_count: z.number().int().openapi({ description: 'Pages it clears.' }),
    issue_count: z.number().int(),
    pages: z.array(z.string()).openapi({ description: `Its pages, the first ${MAX_FIX_PAGES}.` }),
  })
  .openapi('TopFix');
export type TopFix = z.infer<typeof TopFix>;

export const TopFixList = z
  .object({ weights: FixWeights, data: z.array(TopFix).openapi({ description: 'Best first.' }) })
  .openapi('TopFixList', {
    description:
      'The open issues of the latest full base-branch scan of each site, grouped by shared cause and ranked ' +
      'by pages cleared weighted by impact (docs/portfolio.md).',
  });
export type TopFixList = z.infer<typeof TopFixList>;
