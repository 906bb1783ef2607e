import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import type { Logger } from 'pino';
import { newId, nowIso } from '../domain/ids.js';
import { DeliveryRepository, type AttemptResult, type ClaimedDelivery } from '../store/deliveries.js';
import type { Knex } from 'knex';
import type { Dialect } from '../store/db.js';
import { DEFAULT_RETRY_DELAYS_MS, nextRetryDelay, parseRetryAfter } from './retry-schedule.js';
import type { SecretBox } from '../secret-box.js';
import { signDelivery } from './signer.js';
import { checkTargetUrl, guardedLookup, systemResolver, type Resolver } from './ssrf-guard.js';

export interface DeliveryWorkerOptions {
  allowPrivate: boolean;
  /** Deliveries claimed (and sent concurrently) per round. */
  batchSize?: number;
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
}

interface SendOutcome {
  status: number | null;
  excerpt: string | null;
  error: string | null;
  retryAfterMs?: number;
  durationMs: number;
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
 * Claims due deliveries with a lease, sends them (Standard Webhooks signature over the exact bytes
 * sent, no redirects, a timeout, a capped read of the answer) and records every attempt.
 */
export class DeliveryWorker {
  readonly id: string;
  private readonly repo: DeliveryRepository;
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
    this.repo = new DeliveryRepository(deps.db, deps.dialect);
    this.o = {
      allowPrivate: options.allowPrivate,
      batchSize: options.batchSize ?? 50,
      leaseMs: options.leaseMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 10_000,
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
    const now = Date.now();
    const claimed = await this.repo.claimDue(
      this.id,
      nowIso(new Date(now)),
      nowIso(new Date(now + this.o.leaseMs)),
      this.o.batchSize,
    );
    await Promise.all(claimed.map((d) => this.deliver(d)));
    return claimed.length;
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

  private async run(): Promise<void> {
    while (!this.stopped) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (err) {
        if (!this.stopped) this.deps.logger.error({ err, worker: this.id }, 'webhook delivery round failed');
      }
      // A full batch means more may be due: go again at once instead of waiting for the next poll.
      if (claimed < this.o.batchSize && !this.stopped) {
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
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const attempt = d.attempts + 1;
    const attemptedAt = new Date();
    const sent = await this.send(d);
    const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
    let result: Pick<AttemptResult, 'outcome' | 'nextAttemptAt' | 'subscription'>;
    if (ok) {
      result = { outcome: 'succeeded', nextAttemptAt: null, subscription: { kind: 'ok' } };
    } else if (sent.status === 410) {
      result = {
        outcome: 'failed',
        nextAttemptAt: null,
        subscription: { kind: 'disable', reason: 'the receiver answered 410 Gone' },
      };
    } else {
      const delay = nextRetryDelay(attempt, this.o.retryDelaysMs, sent.retryAfterMs, this.o.random);
      const failingFor = d.failingSince ? attemptedAt.getTime() - Date.parse(d.failingSince) : 0;
      result = {
        outcome: delay === undefined ? 'failed' : 'retrying',
        nextAttemptAt: delay === undefined ? null : nowIso(new Date(Date.now() + delay)),
        subscription:
          failingFor >= this.o.disableAfterMs
            ? { kind: 'disable', reason: `every delivery has failed since ${d.failingSince}` }
            : { kind: 'failing' },
      };
    }
    const recorded = await this.repo.recordAttempt(this.id, {
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
    if (recorded && !ok) {
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

  private async send(d: ClaimedDelivery): Promise<SendOutcome> {
    const started = Date.now();
    const fail = (error: string): SendOutcome => ({
      status: null,
      excerpt: null,
      error,
      durationMs: Date.now() - started,
    });
    // Literal addresses never reach the resolver, so they are checked here; names are checked at connect time.
    const refused = checkTargetUrl(d.url, this.o.allowPrivate);
    if (refused) return fail(`refused: the URL ${refused}`);
    let secrets: string[];
    try {
      secrets = [this.deps.box.open(d.secretSealed)];
      // During a rotation's overlap the previous secret signs too, so receivers can switch at any time.
      if (d.previousSecretSealed && d.previousSecretExpiresAt && d.previousSecretExpiresAt > nowIso()) {
        secrets.push(this.deps.box.open(d.previousSecretSealed));
      }
    } catch {
      return fail(
        'cannot decrypt the subscription secret (is WEBHOOK_SECRET_KEY the same on every instance?)',
      );
    }
    const body = d.payload;
    const headers = {
      ...signDelivery(secrets, d.messageId, Math.floor(Date.now() / 1000), body),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'a11y-gate-webhooks',
    };
    const url = new URL(d.url);
    const secure = url.protocol === 'https:';
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (o: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(req);
        resolve({ ...o, durationMs: Date.now() - started });
      };
      const req = (secure ? https : http).request(url, {
        method: 'POST',
        headers,
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: this.o.allowPrivate ? undefined : (guardedLookup(this.o.resolver) as never),
      });
      this.inFlight.add(req);
      const timer = setTimeout(() => {
        req.destroy(new Error(`no answer within ${this.o.timeoutMs / 1000} s`));
      }, this.o.timeoutMs);
      req.on('error', (err) => finish({ status: null, excerpt: null, error: err.message }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const status = res.statusCode ?? 0;
        const retryAfterMs =
          status === 429 || status === 503
            ? parseRetryAfter(res.headers['retry-after'] as string)
            : undefined;
        const done = () => {
          const text = excerptOf(Buffer.concat(chunks), this.o.excerptChars);
          const redirect = status >= 300 && status < 400 ? 'redirects are not followed' : null;
          finish({
            status,
            excerpt: text || null,
            error: redirect ?? (status >= 200 && status < 300 ? null : `HTTP ${status}`),
            retryAfterMs,
          });
        };
        res.on('data', (chunk: Buffer) => {
          if (read < this.o.responseReadBytes)
            chunks.push(chunk.subarray(0, this.o.responseReadBytes - read));
          read += chunk.length;
          // Stop reading a long answer: only the excerpt is kept.
          if (read >= this.o.responseReadBytes) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.end(body);
    });
  }
}

/**
 * The stored excerpt of an answer: text, cut to `chars`. A receiver may answer with binary; PostgreSQL
 * refuses NUL in a text column, and a refused attempt row would leave the delivery leased and re-sent
 * for ever without an attempt on record, so NUL becomes U+FFFD (as invalid UTF-8 already does).
 */
export function excerptOf(body: Buffer, chars: number): string {
  return body.toString('utf8').replace(/\0/g, '\uFFFD').slice(0, chars);
}
