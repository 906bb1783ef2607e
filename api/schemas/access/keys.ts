import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { DEFAULT_SCOPES, SCOPES } from '../../domain/access/api-key.js';
import { PageQuery, pageOf, Timestamp } from '../common.js';
import { z, type OutputIs } from '../zod.js';
import type * as apiKey from '../../domain/access/api-key.js';

export const ScopeSchema = z.enum(SCOPES).openapi('Scope', {
  description:
    '`ingest` submit scans, `gate` deploy trigger and status, `read` all GETs, `manage` sites, waivers, VPAT, ' +
    "webhooks, `admin` the org's own API keys (create, list, change, rotate, revoke; never another org's).",
});

export const Org = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'must be 1-100 characters of a-z, 0-9, ".", "_" or "-"')
  .openapi({ example: 'acme' });

const KeyName = z.string().trim().min(1).max(200).refine(isNulFree, NUL_MESSAGE);

const Scopes = z
  .array(ScopeSchema)
  .min(1)
  .transform((s) => [...new Set(s)]);

const FutureTime = z.iso
  .datetime({ offset: true })
  .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
  .transform((v) => new Date(v).toISOString());

export const CreateKeyBody = z
  .object({
    name: KeyName,
    org: Org.optional().openapi({
      description:
        "The key's org. A key with the `admin` scope creates keys in its own org only (it may omit `org` or " +
        'name its own; another org is 403). With the admin token, a key created without `org` belongs to ' +
        'the org `default`: the single-tenant default; name the org on a shared server.',
    }),
    scopes: Scopes.optional().openapi({
      description: `Default: ${DEFAULT_SCOPES.map((s) => `\`${s}\``).join(', ')} (never \`admin\` unless named).`,
    }),
    expires_at: FutureTime.optional().openapi({
      description: 'After this time the key no longer authenticates (API and console).',
    }),
  })
  .openapi('CreateKeyRequest');

export const UpdateKeyBody = z
  .object({
    name: KeyName.optional(),
    scopes: Scopes.optional(),
    expires_at: FutureTime.nullable()
      .optional()
      .openapi({ description: 'A new expiry in the future, or `null` for none.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of name, scopes, expires_at')
  .openapi('UpdateKeyRequest');

/** Seven days: the longest a rotated key keeps working beside its replacement. */
export const MAX_GRACE_SECONDS = 7 * 24 * 3600;

export const RotateKeyBody = z
  .object({
    grace_period_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_GRACE_SECONDS)
      .default(24 * 3600)
      .openapi({
        description:
          'How long the old key keeps working beside the new one: 0 to 604800 seconds (7 days); ' +
          "default 86400 (24 h). Never past the old key's own expiry.",
      }),
  })
  .strict()
  .openapi('RotateKeyRequest');

export const KeyInfo = z
  .object({
    id: z.string().openapi({ example: 'key_3x9Q…' }),
    name: z.string(),
    org: z.string(),
    prefix: z.string().openapi({ description: "The key's non-secret start, `a11y_<public id>`." }),
    scopes: z.array(ScopeSchema),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
  })
  .openapi('ApiKey');

export const AdminKeyInfo = KeyInfo.extend({
  revoked_at: Timestamp.nullable(),
  replaced_by: z
    .string()
    .nullable()
    .openapi({ description: 'Set once the key was rotated: its replacement.' }),
}).openapi('AdminApiKey');

export const CreatedKey = AdminKeyInfo.extend({
  key: z.string().openapi({ description: 'The secret key. Shown once: only a hash is stored.' }),
}).openapi('CreatedApiKey');

export const KeyList = pageOf(AdminKeyInfo, 'ApiKeyList');

export const RotatedKey = CreatedKey.extend({
  replaces: z
    .object({
      id: z.string(),
      expires_at: Timestamp.openapi({ description: 'When the old key stops working.' }),
    })
    .openapi({ description: 'The rotated key, which keeps working until `expires_at`.' }),
}).openapi('RotatedApiKey');

export const KeyListQuery = PageQuery.extend({
  org: Org.optional().openapi({ description: 'Admin token only: the keys of this org.' }),
});

export type CreateKeyBody = z.output<typeof CreateKeyBody>;
export type UpdateKeyBody = z.output<typeof UpdateKeyBody>;

// The domain's types (named alike) are what these schemas produce, exactly.
type _DomainTypes = [OutputIs<typeof ScopeSchema, apiKey.Scope>];
