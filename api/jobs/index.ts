import type { ApiContext } from '../context.js';
import { RetentionSweep } from '../services/retention.js';
import { removeExpiredOpenScans } from '../services/scans/parts.js';
import { sweepBreaches } from '../services/history/deadlines.js';
import { keepQueuedHistory } from '../services/history/keep.js';
import { sweepReviewsDue } from '../services/statement/review-due.js';
import { pruneIdempotencyKeys } from '../store/requests/idempotency.js';
import { intervalJob, type BackgroundJob } from './background-job.js';
import { webhookJobs } from './webhooks.js';

export function pruneJob(ctx: ApiContext): BackgroundJob {
  return intervalJob(ctx, 'prune', 10 * 60_000, async () => {
    await pruneIdempotencyKeys(ctx.db);
    await ctx.rateLimits.prune();
  });
}

/** Removes scans sent in parts that were never completed (a few per minute, in short batches). */
export function openScanExpiryJob(ctx: ApiContext): BackgroundJob {
  return intervalJob(ctx, 'open-scan-expiry', 60_000, async () => {
    await removeExpiredOpenScans(ctx);
  });
}

/** Removes scans and deploy events past their site's retention, a bounded amount per minute. */
export function retentionJob(ctx: ApiContext): BackgroundJob {
  const sweep = new RetentionSweep(ctx);
  return intervalJob(ctx, 'retention', 60_000, async () => {
    await sweep.run();
  });
}

/** Records `statement.review_due` for statements whose yearly review is near (once per version). */
export function statementReviewJob(ctx: ApiContext): BackgroundJob {
  return intervalJob(ctx, 'statement-review', 10 * 60_000, async () => {
    const n = await sweepReviewsDue(ctx);
    if (n > 0) ctx.logger.info({ statements: n }, 'statement.review_due recorded');
  });
}

/** Keeps the history of the scans queued for it (soon after each completes; a read does it sooner). */
export function historyJob(ctx: ApiContext): BackgroundJob {
  return intervalJob(ctx, 'history', 1_000, async () => {
    await keepQueuedHistory(ctx.db);
  });
}

/** Records `sla.breached` for open issues past their due date (once per issue, whichever instance runs it). */
export function slaBreachJob(ctx: ApiContext): BackgroundJob {
  return intervalJob(ctx, 'sla-breaches', 5 * 60_000, async () => {
    const n = await sweepBreaches(ctx);
    if (n > 0) ctx.logger.info({ issues: n }, 'sla.breached recorded');
  });
}

/** Every background job of the service; features add theirs here. */
export function backgroundJobs(ctx: ApiContext): BackgroundJob[] {
  return [
    pruneJob(ctx),
    openScanExpiryJob(ctx),
    retentionJob(ctx),
    statementReviewJob(ctx),
    historyJob(ctx),
    slaBreachJob(ctx),
    ...webhookJobs(ctx),
  ];
}
