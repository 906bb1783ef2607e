import { packageVersion } from '../core/package-version.js';
import type { Logger } from 'pino';
import { resolveAdminToken } from './admin-token.js';
import type { Config } from './config.js';
import type { ApiContext, GitHubApp } from './context.js';
import { consoleRouter } from './console/index.js';
import { openApiWebhooks } from './schemas/webhook-events.js';
import { createHttpApp, type HttpApp } from './http/app.js';
import { backgroundJobs } from './jobs/index.js';
import { type BackgroundJob } from './jobs/background-job.js';
import { createDb, dialectOf } from './store/db.js';
import { releaseAbandonedRequests } from './store/requests/idempotency.js';
import { migrateToLatest } from './store/migrations/index.js';
import { createRequestLocks } from './store/requests/locks.js';
import { rateLimitStoreFor } from './store/access/rate-limits.js';
import { WriteQueue } from './write-queue.js';

export { orgOfInstallation } from './services/github/installations.js';
export type { DeployPublication, GitHubApp, PublicationOutcome } from './context.js';
export { loadConfig, githubAppConfigured, ConfigError, type Config } from './config.js';
export { createLogger } from './logger.js';
export type { ApiContext } from './context.js';
// For the GitHub App (app/): re-run the gate.
export { rerunDeploy } from './services/gate/triggers.js';
export { mergeGroupSites, withPullRequestComment } from './services/github/pr-comments.js';
export type { CommentLeaseOptions } from './services/github/pr-comments.js';
export type { PullRequestCommentKey } from './store/github/pr-comments.js';
export type { DeployEventSchema } from './schemas/gate/deploys.js';
// For the GitHub App: a fork pull request's scan, taken from its workflow run's artifact.
export {
  gateForkScan,
  type ForkArtifactFiles,
  type ForkRun,
  type ForkScanOutcome,
} from './services/github/fork-scans.js';

export const VERSION: string = packageVersion(import.meta.url);

export interface ApiService {
  ctx: ApiContext;
  http: HttpApp;
  adminToken: string;
  /** Starts background jobs (webhook delivery, expiry, pruning). */
  startJobs(): void;
  /** Stops jobs and closes the database; call after the HTTP server has drained. */
  close(): Promise<void>;
}

export interface ApiServiceOptions {
  config: Config;
  logger: Logger;
  /** PostgreSQL schema to use (tests run each suite in its own). */
  schema?: string;
  /** The GitHub App, when it is configured: its installations and its publication of deploy decisions. */
  github?: GitHubApp;
}

/** Opens the database, applies migrations and builds the express app. */
export async function createApiService(options: ApiServiceOptions): Promise<ApiService> {
  const { config, logger } = options;
  const db = createDb({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    schema: options.schema,
    poolSize: config.databasePoolSize,
  });
  const dialect = dialectOf(db);
  if (options.schema && dialect === 'postgres') {
    await db.raw('create schema if not exists ??', [options.schema]);
  }
  await migrateToLatest(db);
  if (dialect === 'sqlite') {
    const abandoned = await releaseAbandonedRequests(db);
    if (abandoned > 0) logger.warn({ abandoned }, 'released Idempotency-Keys of requests cut off by a crash');
  }
  const adminToken = resolveAdminToken(config.adminToken, config.dataDir, logger);
  const ctx: ApiContext = {
    config,
    db,
    dialect,
    logger,
    lifecycle: { shuttingDown: false },
    writes: new WriteQueue(config.writeQueue.concurrency, config.writeQueue.maxWaitMs),
    rateLimits: rateLimitStoreFor(
      dialect === 'postgres' && config.databaseUrl
        ? { url: config.databaseUrl, schema: options.schema }
        : undefined,
    ),
    requestLocks:
      dialect === 'postgres' && config.databaseUrl
        ? createRequestLocks(config.databaseUrl, options.schema ?? 'public', logger)
        : undefined,
    github: options.github,
  };
  const http = createHttpApp({
    ctx,
    adminToken,
    version: VERSION,
    webhooks: openApiWebhooks,
    pages: consoleRouter(ctx),
  });
  let jobs: BackgroundJob[] = [];
  return {
    ctx,
    http,
    adminToken,
    startJobs() {
      jobs = backgroundJobs(ctx);
      for (const job of jobs) job.start();
    },
    async close() {
      ctx.lifecycle.shuttingDown = true;
      await Promise.all(jobs.map((j) => j.stop()));
      await ctx.requestLocks?.close();
      await ctx.rateLimits.close();
      await db.destroy();
    },
  };
}
