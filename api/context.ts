import type { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Scope } from './domain/access/api-key.js';
import type { Dialect } from './store/db.js';
import type { RateLimitStore } from './store/access/rate-limits.js';
import type { RequestLocks } from './store/requests/locks.js';
import type { WriteQueue } from './write-queue.js';

/** What every router gets: configuration, the database and the process-wide collaborators. */
export interface ApiContext {
  config: Config;
  db: Knex;
  dialect: Dialect;
  logger: Logger;
  /**
   * In-process notifications emitted after a transaction commits (e.g. `deploy.completed` for the
   * GitHub check-run publisher). Durable delivery to other systems goes through the outbox instead.
   */
  notices: EventEmitter;
  /** Flipped on SIGTERM: /readyz answers 503 and new work is refused. */
  lifecycle: { shuttingDown: boolean };
  /** PostgreSQL: which Idempotency-Key requests a live instance is processing (crash takeover). */
  requestLocks?: RequestLocks;
  /**
   * The process's one set of rate-limit counters (in memory on SQLite, a table on PostgreSQL): the API's
   * authentication, the console's sign-in and the prune job count and clean the same windows.
   */
  rateLimits: RateLimitStore;
  /** The process's turns for heavy writes (scan submits and parts, gate triggers): see write-queue.ts. */
  writes: WriteQueue;
  /** Set when the GitHub App is configured: asks GitHub which installation a repository belongs to. */
  readonly github?: GitHubInstallations;
}

export interface GitHubInstallations {
  /** The App's installation id for `owner/name`, or undefined when the App is not installed there. */
  installationOf(repository: string): Promise<number | undefined>;
}

export type Principal =
  { kind: 'admin' } | { kind: 'key'; keyId: string; org: string; name: string; scopes: Scope[] };
