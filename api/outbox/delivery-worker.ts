import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import type { Logger } from 'pino';
import { newId, nowIso } from '../domain/ids.js';
import { claimFairly } from '../store/webhooks/fair-claim.js';
import {
  recordAttempt,
  type AttemptResult,
  type ClaimedDelivery,
  type ClaimedWebhookDelivery,
} from '../store/webhooks/delivery-queue.js';
import type { Knex } from 'knex';
import type { Dialect } from '../store/db.js';
import { DEFAULT_RETRY_DELAYS_MS, nextRetryDelay } from './retry-schedule.js';
import type { SecretBox } from '../secret-box.js';
import { sendDelivery, type SendOutcome, type SendSettings } from './delivery-send.js';
import { systemResolver, type Resolver } from './ssrf-guard.js';
import { pauseIfTimingOut } from './pause.js';
import { attemptGitHub, type GitHubDeliveryHandler } from './github-delivery.js';

export interface DeliveryWorkerOptions {
  allowPrivate: boolean;
  /** Deliveries sent at once by this worker. */
  batchSize?: number;
  /** Attempts in flight at once per subscription, and per org (every worker counted): see fair-claim.ts. */
  perSubscription?: number;
  perOrg?: number;
  /** Attempts in a row without an answer after which a subscription is paused (pause.ts). */
  pauseAfterTimeouts?: number;
  /** How long a claim is held; a worker that dies releases its deliveries when this runs out. */
  leaseMs?: number;
  timeoutMs?: number;
  retryDelaysMs?: number[];
  /** A subscription whose deliveries have failed without a success for this long is disabled. */
  disableAfterMs?: number;
  /** At most this many bytes of a response body are read; the excerpt kept is shorter. */
  responseReadBytes?: number;
  excerptChars?: number;
  pollMs?: number;
  resolver?: Resolver;
  random?: () => number;
  workerId?: string;
}

interface WorkerDeps {
  db: Knex;
  dialect: Dialect;
  logger: Logger;
  box: SecretBox;
  /** Publishes GitHub deliveries; without it (no GitHub App here) they are left to an instance that has one. */
  github?: GitHubDeliveryHandler;
}

const DAY = 24 * 3_600_000;

/** `locked_by` holds at most this many characters (migration 0004). */
const WORKER_ID_MAX = 60;

/**
 * host:pid:random, for the logs and the lease. Host names may be 63 characters (Kubernetes pod names
 * are): longer than the column, PostgreSQL would refuse every claim, so the host part is what gets cut.
 */
function defaultWorkerId(): string {
  const suffix = `:${process.pid}:${newId('dlv').slice(4, 12)}`;
  return os.hostname().slice(0, WORKER_ID_MAX - suffix.length) + suffix;
}

/**
 * Claims due deliveries with a lease, sends them (delivery-send.ts) and records every attempt.
 */
export class DeliveryWorker {
  readonly id: string;
  private readonly o: Required<Omit<DeliveryWorkerOptions, 'workerId'>>;
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly inFlight = new Set<http.ClientRequest>();
  private loop: Promise<void> | undefined;
  private stopped = true;
  private wake: (() => void) | undefined;

  constructor(
    private readonly deps: WorkerDeps,
    options: DeliveryWorkerOptions,
  ) {
    this.id = options.workerId ?? defaultWorkerId();
    this.o = {
      allowPrivate: options.allowPrivate,
      batchSize: options.batchSize ?? 50,
      perSubscription: options.perSubscription ?? 2,
      pauseAfterTimeouts: options.pauseAfterTimeouts ?? 20,
      // No org takes more than half of the worker: another org's delivery always finds a free place.
      perOrg: options.perOrg ?? Math.max(1, Math.floor((options.batchSize ?? 50) / 2)),
      leaseMs: options.leaseMs ?? 60_000,
      // Short: a receiver that does not answer holds a place of its org for at most this long.
      timeoutMs: options.timeoutMs ?? 5_000,
      retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      disableAfterMs: options.disableAfterMs ?? 5 * DAY,
      responseReadBytes: options.responseReadBytes ?? 16 * 1024,
      excerptChars: options.excerptChars ?? 1024,
      pollMs: options.pollMs ?? 1000,
      resolver: options.resolver ?? systemResolver,
      random: options.random ?? Math.random,
    };
  }

  /** Claims one batch of due deliveries and sends them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim(this.o.batchSize);
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const now = Date.now();
    return claimFairly(
      this.deps.db,
      this.id,
      nowIso(new Date(now)),
      nowIso(new Date(now + this.o.leaseMs)),
      limit,
      { perSubscription: this.o.perSubscription, perOrg: this.o.perOrg },
      { github: this.deps.github !== undefined },
    );
  }

  /** Runs rounds until nothing is due (tests and benchmarks). */
  async drain(): Promise<void> {
    while ((await this.runOnce()) > 0) {
      // keep going
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Stops claiming; waits for deliveries in flight, aborting them after `deadlineMs`. */
  async stop(deadlineMs = 10_000): Promise<void> {
    this.stopped = true;
    this.wake?.();
    const timer = setTimeout(() => {
      for (const req of this.inFlight) req.destroy(new Error('shutting down'));
    }, deadlineMs);
    timer.unref();
    await this.loop;
    clearTimeout(timer);
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * A pool, not rounds: each delivery frees its place when it ends and the next claim fills it, so a
   * receiver that never answers holds one place for the timeout, not a whole round of other deliveries.
   */
  private async run(): Promise<void> {
    const active = new Set<Promise<void>>();
    while (!this.stopped) {
      let claimed = 0;
      const room = this.o.batchSize - active.size;
      try {
        for (const d of room > 0 ? await this.claim(room) : []) {
          const sending: Promise<void> = this.deliver(d)
            .catch((err: unknown) =>
              this.deps.logger.error({ err, delivery_id: d.id }, 'webhook delivery failed'),
            )
            .finally(() => {
              active.delete(sending);
              this.wake?.();
            });
          active.add(sending);
          claimed++;
        }
      } catch (err) {
        if (!this.stopped) this.deps.logger.error({ err, worker: this.id }, 'webhook delivery round failed');
      }
      // Claimed some with room left: more may be due, go again at once. Otherwise wait for the next poll
      // or for a place to free up.
      if ((claimed === 0 || active.size >= this.o.batchSize) && !this.stopped) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, this.o.pollMs);
          this.wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        this.wake = undefined;
      }
    }
    await Promise.all(active);
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    if (d.target === 'webhook') return this.deliverWebhook(d);
    const result = await attemptGitHub(d, this.deps.github!, this.o);
    if ((await recordAttempt(this.deps.db, this.id, result)) && result.outcome !== 'succeeded') {
      this.deps.logger.warn(
        { delivery_id: d.id, attempt: result.attempt, error: result.error, outcome: result.outcome },
        'GitHub delivery attempt failed',
      );
    }
  }

  private async deliverWebhook(d: ClaimedWebhookDelivery): Promise<void> {
    const attempt = d.attempts + 1;
    const attemptedAt = new Date();
    const sent = await sendDelivery(d, this.sendSettings());
    const result = outcomeOf(d, attempt, attemptedAt, sent, this.o);
    const recorded = await recordAttempt(this.deps.db, this.id, {
      deliveryId: d.id,
      subscriptionId: d.subscriptionId,
      org: d.org,
      messageId: d.messageId,
      eventType: d.eventType,
      attempt,
      responseStatus: sent.status,
      responseExcerpt: sent.excerpt,
      error: sent.error,
      durationMs: sent.durationMs,
      attemptedAt: nowIso(attemptedAt),
      ...result,
    });
    if (recorded && sent.status === null && result.outcome !== 'succeeded') {
      await pauseIfTimingOut(this.deps.db, this.deps.logger, d.subscriptionId, this.o.pauseAfterTimeouts);
    }
    if (recorded && result.outcome !== 'succeeded') {
      this.deps.logger.warn(
        {
          delivery_id: d.id,
          subscription_id: d.subscriptionId,
          attempt,
          status: sent.status,
          error: sent.error,
          outcome: result.outcome,
        },
        'webhook delivery attempt failed',
      );
    }
  }

  private sendSettings(): SendSettings {
    return {
      allowPrivate: this.o.allowPrivate,
      timeoutMs: this.o.timeoutMs,
      responseReadBytes: this.o.responseReadBytes,
      excerptChars: this.o.excerptChars,
      resolver: this.o.resolver,
      box: this.deps.box,
      agents: { http: this.httpAgent, https: this.httpsAgent },
      inFlight: this.inFlight,
    };
  }
}

/**
 * What an attempt means for the delivery and its subscription: success; 410 Gone disables the
 * subscription; anything else is retried on the schedule (`Retry-After` honoured) until it is spent, and
 * a subscription that has failed for `disableAfterMs` without a success is disabled.
 */
function outcomeOf(
  d: ClaimedWebhookDelivery,
  attempt: number,
  attemptedAt: Date,
  sent: SendOutcome,
  o: { retryDelaysMs: number[]; random: () => number; disableAfterMs: number },
): Pick<AttemptResult, 'outcome' | 'nextAttemptAt' | 'subscription'> {
  if (sent.status !== null && sent.status >= 200 && sent.status < 300) {
    return { outcome: 'succeeded', nextAttemptAt: null, subscription: { kind: 'ok' } };
  }
  if (sent.status === 410) {
    return {
      outcome: 'failed',
      nextAttemptAt: null,
      subscription: { kind: 'disable', reason: 'the receiver answered 410 Gone' },
    };
  }
  const delay = nextRetryDelay(attempt, o.retryDelaysMs, sent.retryAfterMs, o.random);
  const failingFor = d.failingSince ? attemptedAt.getTime() - Date.parse(d.failingSince) : 0;
  return {
    outcome: delay === undefined ? 'failed' : 'retrying',
    nextAttemptAt: delay === undefined ? null : nowIso(new Date(Date.now() + delay)),
    subscription:
      failingFor >= o.disableAfterMs
        ? { kind: 'disable', reason: `every delivery has failed since ${d.failingSince}` }
        : { kind: 'failing' },
  };
}
