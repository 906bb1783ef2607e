import type { ApiContext } from '../context.js';
import { intervalJob, type BackgroundJob } from '../jobs.js';
import { nowIso } from '../domain/ids.js';
import { markExpiredWaivers, type ExpiredWaiverRow } from '../store/waiver-expiry.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from './delivery-worker.js';
import { recordEvent } from './outbox.js';
import { secretBoxFor } from './secret-box.js';

/** The subscription-secret box for this service (shared by the routes and the worker). */
export function webhookSecretBox(ctx: ApiContext) {
  return secretBoxFor(
    {
      secretKey: ctx.config.webhooks.secretKey,
      dataDir: ctx.config.dataDir,
      multiInstance: ctx.dialect === 'postgres',
    },
    ctx.logger,
  );
}

/** A delivery worker for this service; options override the defaults (tests shorten the delays). */
export function createDeliveryWorker(
  ctx: ApiContext,
  options: Partial<DeliveryWorkerOptions> = {},
): DeliveryWorker {
  return new DeliveryWorker(
    { db: ctx.db, dialect: ctx.dialect, logger: ctx.logger, box: webhookSecretBox(ctx) },
    { allowPrivate: ctx.config.webhooks.allowPrivate, pollMs: ctx.config.webhooks.pollMs, ...options },
  );
}

/** The `data` of a `waiver.expired` event. */
export function expiredWaiverData(w: ExpiredWaiverRow) {
  return {
    id: w.id,
    siteId: w.site_id,
    rule: w.rule,
    reason: w.reason,
    expires_at: w.expires_at,
  };
}

/** Records `waiver.expired` once per waiver that has expired; returns how many were recorded. */
export async function sweepExpiredWaivers(ctx: ApiContext, now: Date = new Date()): Promise<number> {
  return markExpiredWaivers(ctx.db, nowIso(now), 500, async (trx, waiver) => {
    await recordEvent(trx, { org: waiver.org, type: 'waiver.expired', data: expiredWaiverData(waiver) });
  });
}

/** The webhook delivery worker and the waiver-expiry sweep. */
export function webhookJobs(ctx: ApiContext): BackgroundJob[] {
  const jobs: BackgroundJob[] = [
    intervalJob(ctx, 'waiver-expiry', Math.min(30_000, ctx.config.webhooks.pollMs * 10), async () => {
      const n = await sweepExpiredWaivers(ctx);
      if (n > 0) ctx.logger.info({ waivers: n }, 'waiver.expired recorded');
    }),
  ];
  if (ctx.config.webhooks.worker) {
    const worker = createDeliveryWorker(ctx);
    jobs.push({
      name: 'webhook-delivery',
      start: () => worker.start(),
      stop: () => worker.stop(ctx.config.shutdownTimeoutMs),
    });
  }
  return jobs;
}
