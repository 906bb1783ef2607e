import { Timestamp } from '../common.js';
import { z } from '../zod.js';

export const TrendQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(2)
    .max(100)
    .default(30)
    .openapi({ description: 'How many of the latest base-branch scans (2-100).' }),
});

const ByImpact = z.object({
  critical: z.number().int(),
  serious: z.number().int(),
  moderate: z.number().int(),
  minor: z.number().int(),
  unknown: z.number().int(),
});

export const TrendPoint = z
  .object({
    scan_id: z.string(),
    sha: z.string().nullable(),
    created_at: Timestamp,
    issues: z.number().int(),
    by_impact: ByImpact,
  })
  .openapi('TrendPoint');

export const SiteTrend = z
  .object({
    siteId: z.string(),
    base_branch: z.string(),
    points: z.array(TrendPoint).openapi({ description: 'Oldest first.' }),
  })
  .openapi('SiteTrend', {
    description: "Issues by impact over the latest scans of the site's base branch, oldest first.",
  });

export type TrendPoint = z.infer<typeof TrendPoint>;
export type SiteTrend = z.infer<typeof SiteTrend>;
