import { PageQuery, pageOf, SiteId, Timestamp } from '../common.js';
import { ReasonCodeSchema } from './deploys.js';
import { z } from '../zod.js';

export const DeployListQuery = PageQuery.extend({
  siteId: SiteId.optional().openapi({ description: "Only this site's deploy events." }),
});

export const DeploySummary = z
  .object({
    id: z.string().openapi({ example: 'dep_2fJ8kQ0aXm4Rt9Lp1ZcV' }),
    siteId: z.string(),
    sha: z.string(),
    ref: z.string().nullable(),
    status: z.enum(['passed', 'failed']),
    passed: z.boolean(),
    reason_codes: z.array(ReasonCodeSchema).openapi({ description: 'Why it failed (empty when it passed).' }),
    scan_id: z.string().nullable(),
    baseline_sha: z.string().nullable(),
    counts: z
      .object({
        new: z.number().int(),
        existing: z.number().int(),
        fixed: z.number().int(),
        waived: z.number().int(),
      })
      .openapi({ description: 'Issues of the head scan by category (as the decision counted them).' }),
    new_issues_total: z.number().int(),
    created_at: Timestamp,
  })
  .openapi('DeploySummary', { description: 'A deploy event as a line of the gate history.' });

export const DeployList = pageOf(DeploySummary, 'DeployList');

export type DeploySummary = z.infer<typeof DeploySummary>;
