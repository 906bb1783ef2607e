import { IMPACTS } from '../../../core/impact.js';
import { INTERVALS } from '../../domain/history/series.js';
import { pageOf, Timestamp } from '../common.js';
import { z } from '../zod.js';
import { DeadlineDaysSchema } from './deadlines.js';

/** The longest range one history read covers, in days (three years of days). */
export const MAX_HISTORY_DAYS = 1100;

export const Day = z.iso.date();

export const Format = z
  .enum(['json', 'csv'])
  .optional()
  .openapi({ description: 'Default: JSON, or CSV when the request accepts `text/csv` and not JSON.' });

/** A range of days: `from` never after `to`. */
export function dayRange(q: { from?: string; to?: string }, ctx: z.RefinementCtx): void {
  if (q.from && q.to && q.from > q.to)
    ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after `to`' });
}

export const OpenByImpact = z.object({
  critical: z.number().int(),
  serious: z.number().int(),
  moderate: z.number().int(),
  minor: z.number().int(),
  unknown: z.number().int(),
});

export const HistoryQuery = z
  .object({
    from: Day.optional().openapi({
      description: 'First day (UTC, YYYY-MM-DD). Default: 89 days before `to`.',
    }),
    to: Day.optional().openapi({ description: 'Last day (UTC, inclusive). Default: today.' }),
    interval: z.enum(INTERVALS).default('day').openapi({ description: 'Weeks begin on Monday (ISO 8601).' }),
    format: Format,
  })
  .superRefine(dayRange)
  .openapi({ description: `At most ${MAX_HISTORY_DAYS} days.` });

export const HistoryPointSchema = z
  .object({
    start: Day,
    end: Day,
    open: OpenByImpact.openapi({
      description: "Open issues at the interval's end (as of the last scan before it), by impact.",
    }),
    open_total: z.number().int(),
    new: z.number().int().openapi({ description: 'Issues seen for the first time.' }),
    fixed: z.number().int().openapi({ description: 'Issues a full scan of their page no longer found.' }),
    regressions: z.number().int().openapi({ description: 'Fixed issues that came back.' }),
    overdue: z.number().int().openapi({
      description: "Open issues past their due date at the interval's end (now, for the current one).",
    }),
  })
  .openapi('HistoryPoint');

export const SiteHistory = z
  .object({
    siteId: z.string(),
    base_branch: z.string(),
    interval: z.enum(INTERVALS),
    from: Day,
    to: Day,
    deadlines: DeadlineDaysSchema,
    points: z.array(HistoryPointSchema).openapi({ description: 'One per interval, oldest first.' }),
  })
  .openapi('SiteHistory', {
    description: "A site's base branch over time, kept as its full scans complete (docs/portfolio.md).",
  });
export type SiteHistory = z.infer<typeof SiteHistory>;

export const HISTORY_ISSUE_STATUSES = ['open', 'fixed', 'unscanned'] as const;

export const HistoryIssuesQuery = z.object({
  status: z.enum(HISTORY_ISSUE_STATUSES).optional().openapi({
    description: '`unscanned`: its page left the scans while it was open. Default: every status.',
  }),
  limit: z.coerce.number().int().min(1).max(500).default(100).openapi({ description: 'Page size (1-500).' }),
  cursor: z
    .string()
    .regex(/^[0-9a-f]{1,64}$/)
    .optional()
    .openapi({ description: 'The `next_cursor` of the previous page.' }),
});

export const HistoryIssue = z
  .object({
    fingerprint: z.string(),
    rule: z.string(),
    impact: z.enum(IMPACTS).nullable(),
    page: z.string(),
    status: z.enum(HISTORY_ISSUE_STATUSES),
    first_seen: Timestamp,
    since: Timestamp.openapi({
      description: 'Where its age and due date count from (a regression: its return).',
    }),
    fixed_at: Timestamp.nullable(),
    regressions: z.number().int(),
    age_days: z.number().int().nullable().openapi({ description: 'Whole days open; null unless open.' }),
    due_at: Timestamp.nullable().openapi({
      description: 'Null: its impact has no deadline, or it is not open.',
    }),
    overdue: z.boolean(),
  })
  .openapi('HistoryIssue');
export type HistoryIssue = z.infer<typeof HistoryIssue>;

export const HistoryIssueList = pageOf(HistoryIssue, 'HistoryIssueList');
export type HistoryIssueList = z.infer<typeof HistoryIssueList>;
