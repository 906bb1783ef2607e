import { isNulFree, NUL_MESSAGE } from '../domain/text-truncation.js';
import { SCOPES } from '../domain/api-key.js';
import { pageOf, Timestamp } from './common.js';
import { z } from './zod.js';

export const Scope = z.enum(SCOPES).openapi('Scope', {
  description:
    '`ingest` submit scans, `gate` deploy trigger and status, `read` all GETs, `manage` sites, waivers, VPAT, webhooks.',
});

export const Org = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'must be 1-100 characters of a-z, 0-9, ".", "_" or "-"')
  .openapi({ example: 'acme' });

export const CreateKeyBody = z
  .object({
    name: z.string().trim().min(1).max(200).refine(isNulFree, NUL_MESSAGE),
    org: Org.default('default'),
    scopes: z
      .array(Scope)
      .min(1)
      .default([...SCOPES])
      .transform((s) => [...new Set(s)]),
    expires_at: z.iso
      .datetime({ offset: true })
      .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
      .optional(),
  })
  .openapi('CreateKeyRequest');

export const KeyInfo = z
  .object({
    id: z.string().openapi({ example: 'key_3x9Q…' }),
    name: z.string(),
    org: z.string(),
    prefix: z.string().openapi({ description: "The key's non-secret start, `a11y_<public id>`." }),
    scopes: z.array(Scope),
    created_at: Timestamp,
    expires_at: Timestamp.nullable(),
    last_used_at: Timestamp.nullable(),
  })
  .openapi('ApiKey');

export const AdminKeyInfo = KeyInfo.extend({ revoked_at: Timestamp.nullable() }).openapi('AdminApiKey');

export const CreatedKey = AdminKeyInfo.extend({
  key: z.string().openapi({ description: 'The secret key. Shown once: only a hash is stored.' }),
}).openapi('CreatedApiKey');

export const KeyList = pageOf(AdminKeyInfo, 'ApiKeyList');

export type CreateKeyBody = z.infer<typeof CreateKeyBody>;
