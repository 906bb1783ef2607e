import { domainErrors } from '../../../domain/errors.js';
import { IdParam } from '../../../schemas/common.js';
import {
  AdminKeyInfo,
  CreatedKey,
  CreateKeyBody,
  KeyInfo,
  KeyList,
  KeyListQuery,
  RotatedKey,
  RotateKeyBody,
  UpdateKeyBody,
} from '../../../schemas/access/keys.js';
import {
  createKey,
  getKey,
  listKeyPage,
  presentKey,
  revokeKey,
  rotateKey,
  updateKey,
  type KeyManager,
} from '../../../services/access/keys.js';
import type { ApiContext, Principal } from '../../../context.js';
import { newestFirstPage } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';

const TAG = 'API keys';

/** The admin token manages every org's keys; a key with the `admin` scope its own org's only. */
const managerOf = (principal: Principal): KeyManager => ({
  org: principal.kind === 'key' ? principal.org : undefined,
});

/** Creating, listing and reading keys. */
function readAndCreate(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/keys',
      tag: TAG,
      summary: 'Create an API key (shown once)',
      description:
        'With the admin token, in the org named by `org` (the org `default` when there is none: the ' +
        'single-tenant default). With an `admin` key, in its own org only.',
      secretInAnswer: true,
      access: 'org-admin',
      body: CreateKeyBody,
      responses: {
        201: { description: 'The new key, with its secret.', schema: CreatedKey, headers: { Location: '' } },
      },
      handler: async ({ body, principal }) => {
        const { view, secret } = await createKey(ctx, managerOf(principal), body);
        return {
          status: 201,
          headers: { Location: `/api/v1/keys/${view.id}` },
          body: { ...view, key: secret },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/keys',
      tag: TAG,
      summary: "List API keys, newest first (the admin token: every org's; an admin key: its org's)",
      access: 'org-admin',
      query: KeyListQuery,
      responses: { 200: { description: 'Keys, newest first.', schema: KeyList, headers: { Link: '' } } },
      handler: ({ query, req, principal }) =>
        newestFirstPage(
          req,
          query,
          (limit, after) => listKeyPage(ctx, managerOf(principal), query.org, limit, after),
          (k) => [k.createdAt, k.id],
          presentKey,
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/keys/:id',
      tag: TAG,
      summary: 'An API key, without its secret (also after it was revoked or rotated)',
      access: 'org-admin',
      params: IdParam,
      responses: { 200: { description: 'The key.', schema: AdminKeyInfo } },
      handler: async ({ params, principal }) => ({
        status: 200,
        body: await getKey(ctx, managerOf(principal), params.id),
      }),
    }),
  ];
}

/** Changing, rotating and revoking keys. */
function changes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'patch',
      path: '/api/v1/keys/:id',
      tag: TAG,
      summary: "Change an API key's name, scopes or expiry",
      description: '409 for a revoked, expired or rotated key.',
      access: 'org-admin',
      params: IdParam,
      body: UpdateKeyBody,
      responses: { 200: { description: 'The key after the change.', schema: AdminKeyInfo } },
      handler: async ({ params, body, principal }) => ({
        status: 200,
        body: await updateKey(ctx, managerOf(principal), params.id, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/keys/:id/rotate',
      tag: TAG,
      summary: 'Rotate an API key: a new secret now, the old one valid for a grace period',
      description:
        'Answers a new key (new id and secret; same org, name, scopes and expiry). The old key keeps ' +
        'working for `grace_period_seconds` (default 24 h, at most 7 days, never past its own expiry), then ' +
        'stops; revoke it to end the grace period early. 409 for a revoked, expired or already rotated key. ' +
        'During the grace period both keys count against `keys_per_org`: 422 naming the limit when the org ' +
        'has no free place (a rotation with `grace_period_seconds: 0` needs none).',
      secretInAnswer: true,
      access: 'org-admin',
      params: IdParam,
      body: RotateKeyBody,
      responses: {
        201: { description: 'The new key, with its secret.', schema: RotatedKey, headers: { Location: '' } },
      },
      handler: async ({ params, body, principal }) => {
        const r = await rotateKey(ctx, managerOf(principal), params.id, body.grace_period_seconds);
        return {
          status: 201,
          headers: { Location: `/api/v1/keys/${r.view.id}` },
          body: { ...r.view, key: r.secret, replaces: r.replaces },
        };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/keys/:id',
      tag: TAG,
      summary: 'Revoke an API key; it stops working at once, its console sessions end',
      access: 'org-admin',
      params: IdParam,
      responses: { 204: { description: 'Revoked.' } },
      handler: async ({ params, principal }) => {
        await revokeKey(ctx, managerOf(principal), params.id);
        return { status: 204 };
      },
    }),
  ];
}

export function keyRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/keys/me',
      tag: TAG,
      summary: 'Describe the calling key',
      description: 'Any valid key may call this, whatever its scopes.',
      access: 'key',
      responses: { 200: { description: 'The calling key.', schema: KeyInfo } },
      handler: async ({ principal }) => {
        if (principal.kind !== 'key') throw domainErrors.notFound('key');
        const {
          revoked_at: _r,
          replaced_by: _b,
          ...info
        } = await getKey(ctx, { org: principal.org }, principal.keyId);
        return { status: 200, body: info };
      },
    }),
    ...readAndCreate(ctx),
    ...changes(ctx),
  ];
}
