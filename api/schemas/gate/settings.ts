import { z } from '../zod.js';

const Limit = z
  .number()
  .int()
  .min(0)
  .nullable()
  .optional()
  .openapi({ description: '`0` = none allowed; absent or null = not checked.' });

/**
 * The thresholds of a deploy gate. A site stores them as its `gate` defaults; a trigger request may set
 * any of them explicitly. Every field is optional here: what is absent falls back to the site's
 * defaults, then to the built-in ones (fail_on_critical true, fail_on_serious false, new_only true,
 * include_incomplete false, no max_* limits).
 */
export const GateSettings = z
  .object({
    fail_on_critical: z.boolean().optional(),
    fail_on_serious: z.boolean().optional(),
    max_critical: Limit,
    max_serious: Limit,
    max_moderate: Limit,
    max_minor: Limit,
    max_total: Limit,
    new_only: z.boolean().optional(),
    include_incomplete: z.boolean().optional(),
  })
  .strict()
  .openapi('GateSettings');

export type GateSettings = z.infer<typeof GateSettings>;
