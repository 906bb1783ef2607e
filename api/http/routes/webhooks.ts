import { newId, nowIso } from '../../domain/ids.js';
import { isNulFree } from '../../domain/text-truncation.js';
import { webhookSecretBox } from '../../secret-box.js';
import { generateWebhookSecret } from '../../events/signer.js';
import { checkTargetUrl } from '../../events/ssrf-guard.js';
import { IdParam, PageQuery } from '../../schemas/common.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  WebhookAttemptList,
  WebhookList,
} from '../../schemas/webhooks.js';
import { DeliveryRepository, type AttemptRecord } from '../../store/deliveries.js';
import { WebhookRepository, type SubscriptionRecord } from '../../store/webhooks.js';
import type { ApiContext } from '../../context.js';
import { decodeCursor, toPage } from '../pagination.js';
import { problems } from '../problem.js';
import { defineRoute, type AnyRoute } from '../route.js';

/**
 * Every event fans out to each subscription of its org inside the transaction of the change (a scan
 * ingest, a gate decision), so their number is bounded, like GitHub's 20 hooks per event or Stripe's 16
 * endpoints. Disabled subscriptions count: delete one to make room.
 */
export const MAX_SUBSCRIPTIONS_PER_ORG = 50;

function present(s: SubscriptionRecord) {
  return {
    id: s.id,
    url: s.url,
    events: s.events,
    description: s.description,
    status: s.status,
    disabled_reason: s.disabledReason,
    created_at: s.createdAt,
  };
}

function presentAttempt(a: AttemptRecord) {
  return {
    delivery_id: a.deliveryId,
    message_id: a.messageId,
    event: a.eventType,
    attempt: a.attempt,
    outcome: a.outcome,
    response_status: a.responseStatus,
    response_excerpt: a.responseExcerpt,
    error: a.error,
    duration_ms: a.durationMs,
    attempted_at: a.attemptedAt,
    next_attempt_at: a.nextAttemptAt,
  };
}

/**
 * A cursor's values go into SQL: a forged one whose id is not an integer, or whose text holds NUL, would
 * make PostgreSQL fail the query (a 500); it is refused like any cursor this API did not issue.
 */
function keysetCursor(cursor: string | undefined, kinds: Array<'text' | 'integer'>) {
  const values = decodeCursor(cursor, kinds.length);
  if (!values) return undefined;
  const fits = values.every((v, i) =>
    kinds[i] === 'integer'
      ? Number.isSafeInteger(v) && (v as number) >= 0
      : typeof v === 'string' && isNulFree(v) && v.length <= 100,
  );
  if (!fits)
    throw problems.validation([{ pointer: '#/query/cursor', detail: 'is not a cursor this API issued' }]);
  return values;
}

export function webhookRoutes(ctx: ApiContext): AnyRoute[] {
  const webhooks = new WebhookRepository(ctx.db);
  const deliveries = new DeliveryRepository(ctx.db, ctx.dialect);
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks',
      tag: 'Webhooks',
      summary: 'Subscribe a URL to events (the signing secret is shown once)',
      secretInAnswer: true,
      description:
        `An org holds at most ${MAX_SUBSCRIPTIONS_PER_ORG} subscriptions (409 beyond). ` +
        'Deliveries follow the Standard Webhooks spec (see `webhooks` in this document): at least once, ' +
        'retried with backoff and jitter (about immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h), ' +
        'redirects not followed, 10 s timeout; `410` disables the subscription.',
      access: 'manage',
      body: CreateWebhookBody,
      responses: {
        201: {
          description: 'The subscription, with its secret.',
          schema: CreatedWebhook,
          headers: { Location: '' },
        },
      },
      handler: async ({ body, org }) => {
        const refused = checkTargetUrl(body.url, ctx.config.webhooks.allowPrivate);
        if (refused) throw problems.validation([{ pointer: '#/url', detail: refused }]);
        if ((await webhooks.count(org)) >= MAX_SUBSCRIPTIONS_PER_ORG) {
          throw problems.conflict(
            `This org already has ${MAX_SUBSCRIPTIONS_PER_ORG} webhook subscriptions, the most it may hold; delete one first.`,
          );
        }
        const secret = generateWebhookSecret();
        const now = nowIso();
        const events = body.events.includes('*') ? ['*'] : body.events;
        const record: SubscriptionRecord = {
          id: newId('whk'),
          org,
          url: new URL(body.url).href,
          events,
          description: body.description ?? null,
          secretSealed: webhookSecretBox(ctx).seal(secret),
          status: 'active',
          disabledReason: null,
          failingSince: null,
          createdAt: now,
          updatedAt: now,
        };
        await webhooks.insert(record);
        ctx.logger.info({ webhook_id: record.id, org, events }, 'webhook subscription created');
        return {
          status: 201,
          headers: { Location: `/api/v1/webhooks/${record.id}` },
          body: { ...present(record), secret },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks',
      tag: 'Webhooks',
      summary: 'List webhook subscriptions, newest first',
      access: 'read',
      query: PageQuery,
      responses: {
        200: {
          description: 'Subscriptions (secrets are never shown again).',
          schema: WebhookList,
          headers: { Link: '' },
        },
      },
      handler: async ({ query, req, org }) => {
        const after = keysetCursor(query.cursor, ['text', 'text']);
        const rows = await webhooks.list(
          org,
          query.limit + 1,
          after ? { createdAt: String(after[0]), id: String(after[1]) } : undefined,
        );
        const page = toPage(req, rows, query.limit, (s) => [s.createdAt, s.id], present);
        return { status: 200, body: page.body, headers: page.headers };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/webhooks/:id',
      tag: 'Webhooks',
      summary: 'Delete a subscription; its pending deliveries are dropped',
      access: 'manage',
      params: IdParam,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ params, org }) => {
        if (!(await webhooks.delete(org, params.id))) throw problems.notFound('webhook');
        ctx.logger.info({ webhook_id: params.id, org }, 'webhook subscription deleted');
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/:id/deliveries',
      tag: 'Webhooks',
      summary: 'Delivery attempts to a subscription, newest first',
      access: 'read',
      params: IdParam,
      query: PageQuery,
      responses: {
        200: { description: 'Attempts, newest first.', schema: WebhookAttemptList, headers: { Link: '' } },
      },
      handler: async ({ params, query, req, org }) => {
        if (!(await webhooks.find(org, params.id))) throw problems.notFound('webhook');
        const after = keysetCursor(query.cursor, ['text', 'integer']);
        const rows = await deliveries.listAttempts(
          org,
          params.id,
          query.limit + 1,
          after ? { attemptedAt: String(after[0]), id: Number(after[1]) } : undefined,
        );
        const page = toPage(req, rows, query.limit, (a) => [a.attemptedAt, a.id], presentAttempt);
        return { status: 200, body: page.body, headers: page.headers };
      },
    }),
  ];
}
