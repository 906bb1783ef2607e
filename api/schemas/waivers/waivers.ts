import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import {
  DEFAULT_WAIVER_REASON_CATEGORY,
  WAIVER_REASON_CATEGORIES,
} from '../../domain/waivers/reason-category.js';
import { PageQuery, pageOf, SiteId, Timestamp } from '../common.js';
import { z } from '../zod.js';

/** Waivers may last at most this long (docs/gate.md): a waiver is a plan to fix, not a pardon. */
export const MAX_WAIVER_DAYS = 365;
const DAY_MS = 86_400_000;

export const WaiverReasonCategorySchema = z.enum(WAIVER_REASON_CATEGORIES).openapi('WaiverReasonCategory', {
  description:
    'Why the issues are accepted, as an accessibility statement lists them: `non-compliance` (not fixed yet; ' +
    '`expires_at` is the date it is to be fixed by), `disproportionate-burden` (`reason` is the assessment of the ' +
    'burden) or `outside-scope` (the content is not within the scope of the applicable legislation).',
});

export const CreateWaiverBody = z
  .object({
    siteId: SiteId,
    // PostgreSQL text cannot hold U+0000: refused here rather than a 500 from the insert.
    rule: z.string().trim().min(1).max(200).refine(isNulFree, NUL_MESSAGE).openapi({
      description: 'The rule id it waives (axe-core rule, e.g. `color-contrast`).',
      example: 'color-contrast',
    }),
    selector: z.string().trim().min(1).max(2000).refine(isNulFree, NUL_MESSAGE).optional().openapi({
      description: 'Only issues on this element (compared with runs of whitespace collapsed).',
      example: '#promo-banner > .cta',
    }),
    url_pattern: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .refine(isNulFree, NUL_MESSAGE)
      .optional()
      .openapi({
        description:
          'Only issues on pages whose URL matches this glob: `*` = any characters except `/`, `**` = anything, ' +
          '`?` = one character. A pattern starting with `/` matches the path (and query) on any host.',
        example: '/products/**',
      }),
    fingerprint: z
      .string()
      .trim()
      // Exactly what scans and deploy events show (sha256, hex): a shortened copy would be a waiver
      // that can never match (and longer text overflowed the column: a 500 on PostgreSQL).
      .regex(
        /^[0-9a-fA-F]{64}$/,
        'must be an issue fingerprint as shown in a scan or deploy event (64 hex digits)',
      )
      .optional()
      .openapi({ description: 'Only the issue with this fingerprint (the most precise waiver).' }),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .refine(isNulFree, NUL_MESSAGE)
      .openapi({ example: 'Third-party widget; vendor fix due in Q1' }),
    reason_category: WaiverReasonCategorySchema.default(DEFAULT_WAIVER_REASON_CATEGORY).openapi({
      description: `Default \`${DEFAULT_WAIVER_REASON_CATEGORY}\`.`,
    }),
    expires_at: z.iso
      .datetime({ offset: true })
      .superRefine((v, ctx) => {
        const t = Date.parse(v);
        if (t <= Date.now()) ctx.addIssue({ code: 'custom', message: 'must be in the future' });
        else if (t > Date.now() + MAX_WAIVER_DAYS * DAY_MS) {
          ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_WAIVER_DAYS} days away` });
        }
      })
      .openapi({ description: `RFC 3339; in the future and at most ${MAX_WAIVER_DAYS} days away.` }),
  })
  .strict()
  .openapi('CreateWaiver');

export const Waiver = z
  .object({
    id: z.string().openapi({ example: 'wvr_8Jd0aQ3mZr5Tn2Xb7LkP' }),
    siteId: z.string(),
    rule: z.string(),
    selector: z.string().nullable(),
    url_pattern: z.string().nullable(),
    fingerprint: z.string().nullable(),
    reason: z.string().nullable(),
    reason_category: WaiverReasonCategorySchema,
    expires_at: Timestamp.nullable(),
    status: z.enum(['active', 'expired', 'revoked']).openapi({
      description: 'Only `active` waivers take part in a gate decision.',
    }),
    active: z.boolean(),
    created_at: Timestamp,
    created_by: z.string().nullable().openapi({ description: 'The API key (`key_…`) that created it.' }),
    revoked_at: Timestamp.nullable(),
    revoked_by: z.string().nullable(),
  })
  .openapi('Waiver');

export const WaiverList = pageOf(Waiver, 'WaiverList');

const BooleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

export const WaiverListQuery = PageQuery.extend({
  siteId: SiteId.optional(),
  active: BooleanQuery.optional().openapi({
    description: '`true`: only active waivers; `false`: only revoked or expired ones.',
  }),
});

export type CreateWaiverBody = z.infer<typeof CreateWaiverBody>;
export type Waiver = z.infer<typeof Waiver>;
