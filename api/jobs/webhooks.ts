import type { ApiContext } from '../context.js';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../outbox/delivery-worker.js';
import { webhookSecretBox } from '../secret-box.js';
import { githubDeliveries } from '../services/github/check-runs.js';
import { sweepExpiredWaivers } from '../services/waivers/expiry.js';
import { intervalJob, type BackgroundJob } from './background-job.js';

/** A delivery worker for this service (webhooks, and GitHub when the App is configured); options override the defaults (tests shorten the delays). */
export function createDeliveryWorker(
  ctx: ApiContext,
  options: Partial<DeliveryWorkerOptions> = {},
): DeliveryWorker {
  return new DeliveryWorker(
    {
      db: ctx.db,
      dialect: ctx.dialect,
      logger: ctx.logger,
      box: webhookSecretBox(ctx),
      github: githubDeliveries(ctx),
    },
    { allowPrivate: ctx.config.webhooks.allowPrivate, pollMs: ctx.config.webhooks.pollMs, ...options },
  );
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
