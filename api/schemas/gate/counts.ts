import { z } from '../zod.js';

/** A deploy event's counts of the head scan's issues: by category, in all and per impact. */

export const CategoryCountsSchema = z.object({
  new: z.number().int(),
  existing: z.number().int(),
  fixed: z.number().int(),
  waived: z.number().int(),
});

const ImpactCounts = CategoryCountsSchema.extend({
  engine_changed: z
    .number()
    .int()
    .optional()
    .openapi({
      description:
        'Issues of this impact that differ (on either side) only because the engine changed, as ' +
        '`counts.engine_changed` counts them; present when the deploy event has an `engine_change`.',
    }),
});

export const DeployCountsSchema = CategoryCountsSchema.extend({
  engine_changed: z
    .number()
    .int()
    .optional()
    .openapi({
      description:
        'Issues that differ (on either side) only because the baseline was made with another engine; counted ' +
        'here and not as new or fixed unless `engine_upgrade` is `fail`. Always present in events recorded ' +
        'by this version.',
    }),
  by_impact: z
    .object({
      critical: ImpactCounts,
      serious: ImpactCounts,
      moderate: ImpactCounts,
      minor: ImpactCounts,
      unknown: ImpactCounts.optional(),
    })
    .openapi({
      description:
        '`unknown`: issues submitted without an impact (only present when there are some). Under an engine ' +
        "change each impact's `engine_changed` says how many of `counts.engine_changed` are of that impact.",
    }),
}).openapi({
  description:
    'Issues of the head scan by category. Waived issues count only as `waived`; `incomplete` issues only when ' +
    '`include_incomplete` is on.',
});
