import type { ApiContext } from '../../context.js';
import { domainErrors } from '../../domain/errors.js';
import { checkCount, LimitError } from '../../domain/access/limits.js';
import { newId, nowIso } from '../../domain/ids.js';
import { webhookSecretBox } from '../../secret-box.js';
import { recordEvent } from '../../outbox/record.js';
import { PING_EVENT } from '../../schemas/webhook-events.js';
import { generateWebhookSecret } from '../../outbox/signer.js';
import { checkTargetUrl } from '../../outbox/ssrf-guard.js';
import type { CreateWebhookBody, UpdateWebhookBody } from '../../schemas/webhooks/subscriptions.js';
import {
  cancelPendingDeliveries,
  findDelivery,
  listAttempts,
  scheduleRedelivery,
  type AttemptRecord,
} from '../../store/webhooks/deliveries.js';
import {
  countSubscriptions,
  deleteSubscription,
  findSubscription,
  insertSubscription,
  listSubscriptions,
  lockOrgSubscriptions,
  saveSubscription,
  type SubscriptionRecord,
} from '../../store/webhooks/subscriptions.js';

/*
 * Every event fans out to each subscription of its org inside the transaction of the change (a scan
 * ingest, a gate decision), so their number is bounded (`webhooks_per_org`), like GitHub's 20 hooks per
 * event or Stripe's 16 endpoints. Disabled subscriptions count: delete one to make room.
 */

const PAUSED_REASON = 'paused (PATCH active: false)';

function refuseTarget(ctx: ApiContext, url: string): void {
  const refused = checkTargetUrl(url, ctx.config.webhooks.allowPrivate);
  if (refused) throw domainErrors.invalid([{ pointer: '#/url', detail: refused }]);
}

/** Creates a subscription and its secret; the cap is counted and kept under one lock per org. */
export async function createSubscription(
  ctx: ApiContext,
  org: string,
  body: CreateWebhookBody,
): Promise<{ subscription: SubscriptionRecord; secret: string }> {
  refuseTarget(ctx, body.url);
  const secret = generateWebhookSecret();
  const now = nowIso();
  const subscription: SubscriptionRecord = {
    id: newId('whk'),
    org,
    url: new URL(body.url).href,
    events: body.events.includes('*') ? ['*'] : body.events,
    description: body.description ?? null,
    secretSealed: webhookSecretBox(ctx).seal(secret),
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    status: 'active',
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await ctx.db.transaction(async (trx) => {
    await lockOrgSubscriptions(trx, ctx.dialect, org);
    const held = await countSubscriptions(trx, org);
    checkCount('webhooks_per_org', ctx.config.limits.webhooksPerOrg, held, `this org holds ${held} webhooks`);
    await insertSubscription(trx, subscription);
  });
  ctx.logger.info(
    { webhook_id: subscription.id, org, events: subscription.events },
    'webhook subscription created',
  );
  return { subscription, secret };
}

/** Changes the URL, events, description or whether it is active; pausing drops scheduled retries. */
export async function updateSubscription(
  ctx: ApiContext,
  org: string,
  id: string,
  patch: UpdateWebhookBody,
): Promise<SubscriptionRecord> {
  if (patch.url !== undefined) refuseTarget(ctx, patch.url);
  const now = nowIso();
  const updated = await ctx.db.transaction(async (trx) => {
    const sub = await findSubscription(trx, org, id);
    if (!sub) throw domainErrors.notFound('webhook');
    if (patch.url !== undefined) sub.url = new URL(patch.url).href;
    if (patch.events !== undefined) sub.events = patch.events.includes('*') ? ['*'] : patch.events;
    if (patch.description !== undefined) sub.description = patch.description;
    if (patch.active === false && sub.status === 'active') {
      sub.status = 'disabled';
      sub.disabledReason = PAUSED_REASON;
      await cancelPendingDeliveries(trx, sub.id, now);
    } else if (patch.active === true && sub.status !== 'active') {
      sub.status = 'active';
      sub.disabledReason = null;
      sub.failingSince = null;
    }
    sub.updatedAt = now;
    await saveSubscription(trx, sub);
    return sub;
  });
  ctx.logger.info({ webhook_id: id, org, fields: Object.keys(patch) }, 'webhook subscription changed');
  return updated;
}

/**
 * A new secret; the previous one keeps signing deliveries (a second signature) for `overlapSeconds`.
 * During an overlap a second rotation with an overlap is a conflict, as for keys: it would end the overlap
 * of the secret the receiver may still hold. `overlapSeconds: 0` ends every old secret at once (a leak).
 */
export async function rotateSubscriptionSecret(
  ctx: ApiContext,
  org: string,
  id: string,
  overlapSeconds: number,
): Promise<{ subscription: SubscriptionRecord; secret: string }> {
  const secret = generateWebhookSecret();
  const now = new Date();
  const subscription = await ctx.db.transaction(async (trx) => {
    await lockOrgSubscriptions(trx, ctx.dialect, org);
    const sub = await findSubscription(trx, org, id);
    if (!sub) throw domainErrors.notFound('webhook');
    const overlapEnd = sub.previousSecretExpiresAt;
    if (overlapSeconds > 0 && sub.previousSecretSealed && overlapEnd && overlapEnd > nowIso(now)) {
      throw domainErrors.conflict(
        `The previous secret is still valid until ${overlapEnd}: rotate again after that, or with overlap_seconds 0 to end every old secret now.`,
      );
    }
    sub.previousSecretSealed = overlapSeconds > 0 ? sub.secretSealed : null;
    sub.previousSecretExpiresAt =
      overlapSeconds > 0 ? nowIso(new Date(now.getTime() + overlapSeconds * 1000)) : null;
    sub.secretSealed = webhookSecretBox(ctx).seal(secret);
    sub.updatedAt = nowIso(now);
    await saveSubscription(trx, sub);
    return sub;
  });
  ctx.logger.info({ webhook_id: id, org, overlap_seconds: overlapSeconds }, 'webhook secret rotated');
  return { subscription, secret };
}

/** Pings count against a per-subscription budget: a receiver that never answers is not flooded. */
async function countPing(ctx: ApiContext, id: string): Promise<void> {
  const max = ctx.config.limits.pingsPerMinutePerWebhook;
  const { count, resetAt } = await ctx.rateLimits.hit(`ping:${id}`, 60);
  if (count <= max) return;
  const retryAfter = Math.max(1, resetAt - Math.floor(Date.now() / 1000));
  throw new LimitError(
    'pings_per_minute_per_webhook',
    max,
    429,
    `The limit pings_per_minute_per_webhook (${max}) is reached for this webhook; try again in ${retryAfter} s.`,
    undefined,
    retryAfter,
  );
}

/** Sends a `webhook.ping` event to this subscription only, delivered (signed, retried) like any other. */
export async function pingSubscription(
  ctx: ApiContext,
  org: string,
  id: string,
): Promise<{ messageId: string; deliveryId: string }> {
  if (!(await findSubscription(ctx.db, org, id))) throw domainErrors.notFound('webhook');
  await countPing(ctx, id);
  return ctx.db.transaction(async (trx) => {
    const sub = await findSubscription(trx, org, id);
    if (!sub) throw domainErrors.notFound('webhook');
    if (sub.status !== 'active') throw domainErrors.conflict(inactive(sub));
    const data = { webhook_id: sub.id, url: sub.url, events: sub.events };
    const messageId = await recordEvent(trx, org, { type: PING_EVENT, data }, { only: sub.id });
    const delivery = await trx('webhook_deliveries')
      .where({ message_id: messageId, subscription_id: sub.id })
      .first<{ id: string }>('id');
    return { messageId, deliveryId: delivery.id };
  });
}

/** Sends one finished delivery again (same `webhook-id`, so receivers can still drop a repeat). */
export async function redeliver(
  ctx: ApiContext,
  org: string,
  id: string,
  deliveryId: string,
): Promise<{ messageId: string; deliveryId: string }> {
  return ctx.db.transaction(async (trx) => {
    const sub = await findSubscription(trx, org, id);
    if (!sub) throw domainErrors.notFound('webhook');
    const delivery = await findDelivery(trx, org, id, deliveryId);
    if (!delivery) throw domainErrors.notFound('delivery');
    if (sub.status !== 'active') throw domainErrors.conflict(inactive(sub));
    if (!(await scheduleRedelivery(trx, delivery.id, nowIso()))) {
      throw domainErrors.conflict('This delivery is still scheduled; it will be attempted again anyway.');
    }
    return { messageId: delivery.messageId, deliveryId: delivery.id };
  });
}

function inactive(sub: SubscriptionRecord): string {
  return `The subscription is disabled (${sub.disabledReason ?? 'no reason recorded'}); re-enable it with PATCH {"active": true} first.`;
}

export async function removeSubscription(ctx: ApiContext, org: string, id: string): Promise<void> {
  const deleted = await ctx.db.transaction((trx) => deleteSubscription(trx, org, id));
  if (!deleted) throw domainErrors.notFound('webhook');
  ctx.logger.info({ webhook_id: id, org }, 'webhook subscription deleted');
}

export async function getSubscription(ctx: ApiContext, org: string, id: string): Promise<SubscriptionRecord> {
  const sub = await findSubscription(ctx.db, org, id);
  if (!sub) throw domainErrors.notFound('webhook');
  return sub;
}

export function pageOfSubscriptions(
  ctx: ApiContext,
  org: string,
  limit: number,
  after?: { createdAt: string; id: string },
): Promise<SubscriptionRecord[]> {
  return listSubscriptions(ctx.db, org, limit, after);
}

export async function pageOfAttempts(
  ctx: ApiContext,
  org: string,
  id: string,
  limit: number,
  after?: { attemptedAt: string; id: number },
): Promise<AttemptRecord[]> {
  await getSubscription(ctx, org, id);
  return listAttempts(ctx.db, org, id, limit, after);
}
