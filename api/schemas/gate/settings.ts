import { ENGINE_UPGRADE_POLICIES } from '../../../core/gate/engine.js';
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
 * include_incomplete false, engine_upgrade warn, no max_* limits).
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
    engine_upgrade: z
      .enum(ENGINE_UPGRADE_POLICIES)
      .optional()
      .openapi({
        description:
          'When the baseline was made with another engine (and no earlier base-branch scan with the same one ' +
          'exists): `warn` (default) counts the issues that differ apart and fails nothing on them; `fail` ' +
          'judges them as new and fixed issues.',
      }),
  })
  .strict()
  .openapi('GateSettings');

export type GateSettings = z.infer<typeof GateSettings>;
