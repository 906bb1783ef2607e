import { Day, dayRange, Format, MAX_HISTORY_DAYS, OpenByImpact } from '../history/history.js';
import { Tag } from '../sites/tags.js';
import { z } from '../zod.js';
import { Top, TopFix } from './fixes.js';

export const PortfolioQuery = z
  .object({
    group: Tag.optional().openapi({ description: 'Only the sites carrying this tag.' }),
    from: Day.optional().openapi({ description: "First day (UTC). Default: the first of `to`'s month." }),
    to: Day.optional().openapi({ description: 'Last day (UTC, inclusive). Default: today.' }),
    top: Top,
    format: Format,
  })
  .superRefine(dayRange)
  .openapi({ description: `At most ${MAX_HISTORY_DAYS} days.` });

const figures = {
  open: OpenByImpact.openapi({ description: "Open issues at the range's end, by impact." }),
  open_total: z.number().int(),
  open_before: z
    .number()
    .int()
    .openapi({ description: 'Open issues at the end of the day before the range.' }),
  change: z.number().int().openapi({ description: '`open_total` minus `open_before`.' }),
  new: z.number().int(),
  fixed: z.number().int(),
  regressions: z.number().int().openapi({ description: 'Fixed issues that came back in the range.' }),
  overdue: z.number().int().openapi({
    description: "Open issues past their due date at the range's end (now, when it ends today).",
  }),
};

export const PortfolioSummarySchema = z
  .object({
    sites: z.number().int(),
    ...figures,
    worse: z.array(z.string()).openapi({ description: 'The sites with more open issues than at the start.' }),
    top_fixes: z.array(TopFix).openapi({ description: 'The fixes that clear the most, best first.' }),
  })
  .openapi('PortfolioSummary');

export const PortfolioSite = z
  .object({
    siteId: z.string(),
    name: z.string().nullable(),
    tags: z.array(z.string()),
    ...figures,
    worse: z.boolean(),
  })
  .openapi('PortfolioSite');

export const Portfolio = z
  .object({
    from: Day,
    to: Day,
    group: z.string().nullable(),
    totals: PortfolioSummarySchema.openapi({ description: 'The org, or the group asked for.' }),
    groups: z
      .array(PortfolioSummarySchema.extend({ group: z.string() }))
      .openapi({ description: 'Per tag of the sites in view (a site with two tags counts in both).' }),
    sites: z.array(PortfolioSite).openapi({ description: 'By siteId.' }),
  })
  .openapi('Portfolio', {
    description:
      "The org's sites over a range, read from the figures kept as scans complete (docs/portfolio.md).",
  });
export type Portfolio = z.infer<typeof Portfolio>;
export type PortfolioSite = z.infer<typeof PortfolioSite>;
