import { generateApiKey } from '../../domain/api-key.js';
import { newId, nowIso } from '../../domain/ids.js';
import { IdParam, PageQuery } from '../../schemas/common.js';
import { CreatedKey, CreateKeyBody, KeyInfo, KeyList } from '../../schemas/keys.js';
import { KeyRepository, type ApiKeyRecord } from '../../store/keys.js';
import type { ApiContext } from '../../context.js';
import { newestFirstPage } from '../pagination.js';
import { problems } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';

function present(k: ApiKeyRecord) {
  return {
    id: k.id,
    name: k.name,
    org: k.org,
    prefix: `a11y_${k.publicId}`,
    scopes: k.scopes,
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    last_used_at: k.lastUsedAt,
  };
}

export function keyRoutes(ctx: ApiContext): AnyRoute[] {
  const keys = new KeyRepository(ctx.db);
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/keys',
      tag: 'API keys',
      summary: 'Create an API key (shown once)',
      secretInAnswer: true,
      access: 'admin',
      body: CreateKeyBody,
      responses: {
        201: { description: 'The new key, with its secret.', schema: CreatedKey, headers: { Location: '' } },
      },
      handler: async ({ body }) => {
        const generated = generateApiKey();
        const record: ApiKeyRecord = {
          id: newId('key'),
          org: body.org,
          name: body.name,
          publicId: generated.publicId,
          secretHash: generated.secretHash,
          scopes: body.scopes,
          createdAt: nowIso(),
          expiresAt: body.expires_at ? new Date(body.expires_at).toISOString() : null,
          revokedAt: null,
          lastUsedAt: null,
        };
        await keys.insert(record);
        ctx.logger.info({ key_id: record.id, org: record.org, scopes: record.scopes }, 'api key created');
        return {
          status: 201,
          headers: { Location: `/api/v1/keys/${record.id}` },
          body: { ...present(record), revoked_at: null, key: generated.key },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/keys/me',
      tag: 'API keys',
      summary: 'Describe the calling key',
      description: 'Any valid key may call this, whatever its scopes.',
      access: 'key',
      responses: { 200: { description: 'The calling key.', schema: KeyInfo } },
      handler: async ({ principal }) => {
        const record = principal.kind === 'key' ? await keys.findById(principal.keyId) : undefined;
        if (!record) throw problems.notFound('key');
        return { status: 200, body: present(record) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/keys',
      tag: 'API keys',
      summary: 'List every API key (admin)',
      access: 'admin',
      query: PageQuery,
      responses: { 200: { description: 'Keys, newest first.', schema: KeyList, headers: { Link: '' } } },
      handler: ({ query, req }) =>
        newestFirstPage(
          req,
          query,
          (limit, after) => keys.list(limit, after),
          (k) => [k.createdAt, k.id],
          (k) => ({ ...present(k), revoked_at: k.revokedAt }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/keys/:id',
      tag: 'API keys',
      summary: 'Revoke an API key (admin); it stops working at once',
      access: 'admin',
      params: IdParam,
      responses: { 204: { description: 'Revoked.' } },
      handler: async ({ params }) => {
        const revoked = await keys.revoke(params.id, nowIso());
        if (!revoked) throw problems.notFound('key');
        ctx.logger.info({ key_id: params.id }, 'api key revoked');
        return { status: 204 };
      },
    }),
  ];
}
