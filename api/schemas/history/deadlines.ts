import { IMPACTS } from '../../../core/impact.js';
import type { DeadlineDays, DeadlineOverrides } from '../../domain/history/deadlines.js';
import { Timestamp } from '../common.js';
import { z, type OutputIs } from '../zod.js';

const Days = z
  .number()
  .int()
  .min(1)
  .max(3650)
  .nullable()
  .openapi({ description: 'Days from when an issue is first seen to its due date; null: no deadline.' });

const daysShape = Object.fromEntries(IMPACTS.map((i) => [i, Days])) as Record<
  (typeof IMPACTS)[number],
  typeof Days
>;

export const DeadlineDaysSchema: OutputIs<z.ZodObject<typeof daysShape>, DeadlineDays> = z
  .object(daysShape)
  .strict()
  .openapi('DeadlineDays', { description: 'Days allowed to fix an open issue, per impact (null: none).' });

export const DeadlineOverridesSchema: OutputIs<z.ZodType<DeadlineOverrides>, DeadlineOverrides> = z
  .object(daysShape)
  .partial()
  .strict()
  .openapi('DeadlineOverrides', {
    description: "A site's own days per impact; an impact left out follows the org's.",
  });

export const OrgDeadlines = z
  .object({
    days: DeadlineDaysSchema,
    updated_at: Timestamp.nullable().openapi({ description: 'Null: the defaults, never set.' }),
  })
  .openapi('OrgDeadlines');

export const SiteDeadlines = z
  .object({
    siteId: z.string(),
    org_days: DeadlineDaysSchema,
    overrides: DeadlineOverridesSchema,
    days: DeadlineDaysSchema.openapi({
      description: "What the site's issues are held to: its overrides over the org's.",
    }),
  })
  .openapi('SiteDeadlines');

export type OrgDeadlines = z.infer<typeof OrgDeadlines>;
export type SiteDeadlines = z.infer<typeof SiteDeadlines>;

export const SlaBreached = z
  .object({
    siteId: z.string(),
    fingerprint: z.string(),
    rule: z.string(),
    impact: z.enum(IMPACTS),
    page: z
      .string()
      .openapi({ description: 'The page (path, query, route; `@viewport` when one was named).' }),
    since: Timestamp.openapi({
      description: 'When the issue was first seen (for a regression: seen again).',
    }),
    due_at: Timestamp,
    days_allowed: z.number().int(),
  })
  .openapi('SlaBreached');
