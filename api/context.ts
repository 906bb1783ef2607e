import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Scope } from './domain/access/api-key.js';
import type { GateResult } from '../core/gate/deploy-event.js';
import type { CheckRunUpdate } from '../core/github/check-run.js';
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
  /** Set when the GitHub App is configured: its installations and its publication of deploy decisions. */
  readonly github?: GitHubApp;
}

/** What the service asks of the GitHub App (app/), which the process host hands in. */
export interface GitHubApp {
  /** The App's installation id for `owner/name`, or undefined when the App is not installed there. */
  installationOf(repository: string): Promise<number | undefined>;
  /**
   * Posts a deploy decision's check run and writes its pull request comment (one attempt of its outbox
   * delivery), recording the check run's state with `recordCheckRun`: as soon as the run exists, before
   * the rest follows (so a later attempt updates that run instead of creating another), and at the end.
   */
  publish(
    deploy: DeployPublication,
    recordCheckRun: (state: CheckRunUpdate) => Promise<void>,
  ): Promise<PublicationOutcome>;
}

/** A deploy decision as its GitHub delivery publishes it: the event from the outbox row and where it goes. */
export interface DeployPublication {
  org: string;
  /** `owner/name` from the trigger request or the site settings (null: nothing to post to). */
  repository: string | null;
  result: GateResult;
  /** The trigger's pull request number, when it named one. */
  pullRequest: number | null;
  /** The site's `pr_comment` setting (true when the site is gone: the default). */
  prComment: boolean;
  /** The new issues' element screenshots by fingerprint, with their signed links. */
  pictures: ReadonlyMap<string, { alt: string; url: string | undefined }>;
  /** The check run recorded so far: `completed` is not posted again, an id is updated rather than created. */
  checkRun: CheckRunUpdate;
}

/** What one publication came to: the check run's state and whether GitHub's failure is worth a retry. */
export interface PublicationOutcome {
  checkRun: CheckRunUpdate;
  /** GitHub did not answer, answered 5xx or a rate limit (for the check run or the comment). */
  retry: boolean;
  /** The status of the failing GitHub request, and why it failed; null when everything was written. */
  status: number | null;
  error: string | null;
}

export type Principal =
  { kind: 'admin' } | { kind: 'key'; keyId: string; org: string; name: string; scopes: Scope[] };
