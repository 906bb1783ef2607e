import type { ApiContext } from './context.js';
import { webhookJobs } from './events/jobs.js';
import { IdempotencyRepository } from './store/idempotency.js';
import { rateLimitStoreFor } from './store/rate-limits.js';

/** Work the server does in the background; stopped (and awaited) on shutdown. */
export interface BackgroundJob {
  name: string;
  start(): void;
  stop(): Promise<void>;
}

/** Runs `tick` every `intervalMs` without overlapping itself; errors are logged, never thrown. */
export function intervalJob(
  ctx: ApiContext,
  name: string,
  intervalMs: number,
  tick: () => Promise<void>,
): BackgroundJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = tick()
      .catch((err) => ctx.logger.error({ err, job: name }, 'background job failed'))
      .finally(() => {
        running = undefined;
      });
  };
  return {
    name,
    start() {
      stopped = false;
      timer = setInterval(run, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

export function pruneJob(ctx: ApiContext): BackgroundJob {
  const idempotency = new IdempotencyRepository(ctx.db);
  const limits = rateLimitStoreFor(ctx.db, ctx.dialect);
  return intervalJob(ctx, 'prune', 10 * 60_000, async () => {
    await idempotency.prune();
    await limits.prune();
  });
}

/** Every background job of the service; features add theirs here. */
export function backgroundJobs(ctx: ApiContext): BackgroundJob[] {
  return [pruneJob(ctx), ...webhookJobs(ctx)];
}
