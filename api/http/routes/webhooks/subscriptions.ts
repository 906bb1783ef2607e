import { PageQuery } from '../../../schemas/common.js';
import {
  CreatedWebhook,
  CreateWebhookBody,
  DeliveryParam,
  RotatedWebhookSecret,
  RotateSecretBody,
  ScheduledDelivery,
  UpdateWebhookBody,
  Webhook,
  WebhookAttemptList,
  WebhookList,
  WebhookParam,
} from '../../../schemas/webhooks/subscriptions.js';
import {
  createSubscription,
  getSubscription,
  pageOfAttempts,
  pageOfSubscriptions,
  pingSubscription,
  redeliver,
  removeSubscription,
  rotateSubscriptionSecret,
  updateSubscription,
} from '../../../services/webhooks/subscriptions.js';
import type { ApiContext } from '../../../context.js';
import { toPage } from '../../pagination.js';
import { defineRoute, type AnyRoute } from '../../route.js';
import { presentAttempt, presentSubscription } from '../../../services/webhooks/views.js';
import { keysetCursor } from './cursor.js';

const scheduled = (s: { messageId: string; deliveryId: string }) => ({
  status: 202,
  body: { delivery_id: s.deliveryId, message_id: s.messageId, status: 'pending' },
});

/** Subscribing and listing. */
function subscriptionRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks',
      tag: 'Webhooks',
      summary: 'Subscribe a URL to events (the signing secret is shown once)',
      secretInAnswer: true,
      description:
        `An org holds at most \`webhooks_per_org\` subscriptions (${ctx.config.limits.webhooksPerOrg}; 422 beyond). ` +
        'Deliveries follow the Standard Webhooks spec (see `webhooks` in this document): at least once, ' +
        'retried with backoff and jitter (about immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h), ' +
        'redirects not followed, 5 s timeout; `410` disables the subscription; a receiver that keeps timing out is ' +
        'paused (`webhook.paused`).',
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
        const { subscription, secret } = await createSubscription(ctx, org, body);
        const location = `/api/v1/webhooks/${subscription.id}`;
        return {
          status: 201,
          headers: { Location: location },
          body: { ...presentSubscription(subscription), secret },
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
        const cursor = after ? { createdAt: String(after[0]), id: String(after[1]) } : undefined;
        const rows = await pageOfSubscriptions(ctx, org, query.limit + 1, cursor);
        const page = toPage(req, rows, query.limit, (s) => [s.createdAt, s.id], presentSubscription);
        return { status: 200, body: page.body, headers: page.headers };
      },
    }),
  ];
}

/** One subscription: read, change, delete. */
function subscriptionItemRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/:id',
      tag: 'Webhooks',
      summary: 'A webhook subscription (never its secret)',
      access: 'read',
      params: WebhookParam,
      responses: { 200: { description: 'The subscription.', schema: Webhook } },
      handler: async ({ params, org }) => ({
        status: 200,
        body: presentSubscription(await getSubscription(ctx, org, params.id)),
      }),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/webhooks/:id',
      tag: 'Webhooks',
      summary: 'Change the URL, events or description, or pause and resume a subscription',
      access: 'manage',
      params: WebhookParam,
      body: UpdateWebhookBody,
      responses: { 200: { description: 'The subscription after the change.', schema: Webhook } },
      handler: async ({ params, body, org }) => ({
        status: 200,
        body: presentSubscription(await updateSubscription(ctx, org, params.id, body)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/webhooks/:id',
      tag: 'Webhooks',
      summary: 'Delete a subscription; its pending deliveries are dropped',
      access: 'manage',
      params: WebhookParam,
      responses: { 204: { description: 'Deleted.' } },
      handler: async ({ params, org }) => {
        await removeSubscription(ctx, org, params.id);
        return { status: 204 };
      },
    }),
  ];
}

/** Operating a subscription: secret rotation, ping, redelivery, the attempts list. */
function operationRoutes(ctx: ApiContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/:id/rotate-secret',
      tag: 'Webhooks',
      summary: 'Replace the signing secret; the previous one keeps signing during an overlap',
      description:
        'Deliveries carry two `v1,` signatures in `webhook-signature` until `previous_secret_expires_at`, one ' +
        'with each secret, so the receiver can switch to the new secret at any time during the overlap. ' +
        'A second rotation during an overlap is 409 (it would end the overlap of the secret the receiver ' +
        'still holds), unless `overlap_seconds` is 0, which ends every old secret at once.',
      secretInAnswer: true,
      access: 'manage',
      params: WebhookParam,
      body: RotateSecretBody,
      responses: {
        200: { description: 'The subscription, with its new secret.', schema: RotatedWebhookSecret },
      },
      handler: async ({ params, body, org }) => {
        const { subscription, secret } = await rotateSubscriptionSecret(
          ctx,
          org,
          params.id,
          body.overlap_seconds,
        );
        return { status: 200, body: { ...presentSubscription(subscription), secret } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/:id/ping',
      tag: 'Webhooks',
      summary: 'Send a `webhook.ping` event to this subscription',
      description:
        'The ping is an event like any other: signed, retried and listed under the deliveries. ' +
        '409 when the subscription is paused or disabled.',
      access: 'manage',
      params: WebhookParam,
      responses: { 202: { description: 'The ping delivery, scheduled.', schema: ScheduledDelivery } },
      handler: async ({ params, org }) => scheduled(await pingSubscription(ctx, org, params.id)),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/:id/deliveries/:delivery/redeliver',
      tag: 'Webhooks',
      summary: 'Send a finished delivery again (same event, same `webhook-id`)',
      description:
        'One more attempt, recorded in the attempts list. 409 while the delivery is still scheduled or the ' +
        'subscription is paused or disabled.',
      access: 'manage',
      params: DeliveryParam,
      responses: { 202: { description: 'The delivery, scheduled again.', schema: ScheduledDelivery } },
      handler: async ({ params, org }) => scheduled(await redeliver(ctx, org, params.id, params.delivery)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/:id/deliveries',
      tag: 'Webhooks',
      summary: 'Delivery attempts to a subscription, newest first',
      access: 'read',
      params: WebhookParam,
      query: PageQuery,
      responses: {
        200: { description: 'Attempts, newest first.', schema: WebhookAttemptList, headers: { Link: '' } },
      },
      handler: async ({ params, query, req, org }) => {
        const after = keysetCursor(query.cursor, ['text', 'integer']);
        const cursor = after ? { attemptedAt: String(after[0]), id: Number(after[1]) } : undefined;
        const rows = await pageOfAttempts(ctx, org, params.id, query.limit + 1, cursor);
        const page = toPage(req, rows, query.limit, (a) => [a.attemptedAt, a.id], presentAttempt);
        return { status: 200, body: page.body, headers: page.headers };
      },
    }),
  ];
}

export function webhookRoutes(ctx: ApiContext): AnyRoute[] {
  return [...subscriptionRoutes(ctx), ...subscriptionItemRoutes(ctx), ...operationRoutes(ctx)];
}
