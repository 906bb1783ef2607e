import { readAnswer } from './response-reading.js';
import { ApiError } from './errors.js';
import { getRequest, postRequest, send, type PostRequest } from './request.js';
import type { ApiResponse } from './response.js';
import { backoff, networkReason, seconds, type BackoffPolicy } from './retry.js';

export type { ApiResponse };
export { ApiError, type ApiErrorKind } from './errors.js';
export { parseRetryAfter } from '../core/retry-after.js';

/**
 * A small client for the a11y-gate REST API: JSON over fetch, every POST with an Idempotency-Key, keyed
 * GETs, and retries for what is transient (network errors, timeouts, 408/409/425/429 and 5xx). Retrying a POST is
 * safe because the service replays an answer for the same Idempotency-Key and body.
 */

export interface ApiClientOptions {
  /** Base URL of the service, without `/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Retries after the first attempt (default 4: five attempts in all). */
  retries?: number;
  /** First backoff delay; each retry doubles it (default 2 s). */
  retryDelayMs?: number;
  /** Longest backoff delay (default 30 s). */
  maxRetryDelayMs?: number;
  /**
   * Longest Retry-After honoured (default 60 s: the service's rate limits count per minute, so what it asks
   * for is never longer; waking earlier would only spend an attempt on another 429).
   */
  maxRetryAfterMs?: number;
  /** Per-attempt timeout (default 30 s). */
  timeoutMs?: number;
  /** Bodies larger than this are sent gzip-compressed (default 64 KiB; the service inflates them). */
  gzipAboveBytes?: number;
  userAgent?: string;
  /** Injected by tests to observe delays without waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** Where retry notes go (core.info in the action). */
  log?: (message: string) => void;
  /** Jitter source in [0, 1) (tests pin it). */
  random?: () => number;
}

export class ApiClient {
  private readonly baseUrl: string;
  private readonly retries: number;
  private readonly policy: BackoffPolicy;
  private readonly maxRetryAfterMs: number;
  private readonly timeoutMs: number;
  private readonly gzipAboveBytes: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly log: (message: string) => void;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retries = options.retries ?? 4;
    this.policy = {
      retryDelayMs: options.retryDelayMs ?? 2_000,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
      random: options.random ?? Math.random,
    };
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.gzipAboveBytes = options.gzipAboveBytes ?? 64 * 1024;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.log = options.log ?? (() => undefined);
  }

  /** GETs a public JSON document once, without the key (`GET /api/v1`); null when it cannot be had. */
  async getPublic<T>(path: string): Promise<T | null> {
    try {
      const res = await fetch(this.baseUrl + path, {
        headers: { accept: 'application/json', 'user-agent': this.options.userAgent ?? 'a11y-gate-action' },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      return res.ok ? ((await res.json()) as T) : null;
    } catch {
      return null;
    }
  }

  /**
   * Whether the service takes the key (`GET /api/v1/keys/me`, which any valid key may call): asked before a
   * scan, so a wrong key or address is found in a second rather than after the whole scan. Throws an
   * ApiError saying what is wrong; the key's name when it is taken.
   */
  async checkKey(): Promise<string> {
    const path = '/api/v1/keys/me';
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json, application/problem+json',
          'user-agent': this.options.userAgent ?? 'a11y-gate-action',
        },
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const why = networkReason(e, this.timeoutMs);
      throw new ApiError('outage', `the service at ${this.baseUrl} could not be reached: ${why}`, {
        attempts: 1,
      });
    }
    const text = await res.text();
    if (res.ok) return (JSON.parse(text) as { name?: string }).name ?? 'unnamed';
    const problem = (() => {
      try {
        return JSON.parse(text) as { detail?: string; code?: string };
      } catch {
        return {};
      }
    })();
    const what =
      res.status === 401
        ? 'the service refused the API key (--api-key or A11Y_GATE_API_KEY)'
        : `GET ${path} answered ${res.status}`;
    throw new ApiError(
      res.status >= 500 ? 'outage' : 'rejected',
      `${what}${problem.detail ? `: ${problem.detail}` : ''}`,
      {
        status: res.status,
        ...(problem.code ? { code: problem.code } : {}),
        attempts: 1,
      },
    );
  }

  /** POSTs JSON to `path` (e.g. `/api/v1/scans`), retrying transient failures with the same key. */
  async post<T>(
    path: string,
    body: unknown,
    idempotencyKey: string,
    options: { timeoutMs?: number } = {},
  ): Promise<ApiResponse<T>> {
    const request = postRequest(body, idempotencyKey, {
      apiKey: this.options.apiKey,
      userAgent: this.options.userAgent ?? 'a11y-gate-action',
      gzipAboveBytes: this.gzipAboveBytes,
    });
    return this.exchange<T>(path, request, options.timeoutMs ?? this.timeoutMs);
  }

  /** GETs `path` with the key (e.g. `/api/v1/deploy/dep_…`), retrying transient failures like a POST. */
  async get<T>(path: string, options: { timeoutMs?: number } = {}): Promise<ApiResponse<T>> {
    const request = getRequest({
      apiKey: this.options.apiKey,
      userAgent: this.options.userAgent ?? 'a11y-gate-action',
    });
    return this.exchange<T>(path, request, options.timeoutMs ?? this.timeoutMs);
  }

  private async exchange<T>(path: string, request: PostRequest, timeoutMs: number): Promise<ApiResponse<T>> {
    const url = this.baseUrl + path;
    const method = request.method;
    for (let attempt = 1; ; attempt++) {
      const last = attempt > this.retries;
      const sent = await send(url, request, timeoutMs);
      if ('failure' in sent) {
        const why = networkReason(sent.failure, timeoutMs);
        if (last) {
          throw new ApiError('outage', `${method} ${path} failed after ${attempt} attempts: ${why}`, {
            attempts: attempt,
          });
        }
        await this.retryLater(`${method} ${path}`, attempt, why, backoff(this.policy, attempt));
        continue;
      }
      const resolveLocation = (l: string) => this.resolveLocation(l);
      const reading = readAnswer<T>({ method, path, attempt, last, resolveLocation }, sent.res, sent.text);
      if ('response' in reading) return reading.response;
      const { status, code, retryAfter } = reading.retry;
      const wait =
        retryAfter !== null ? Math.min(retryAfter, this.maxRetryAfterMs) : backoff(this.policy, attempt);
      const why = `${status}${code ? ` ${code}` : ''}`;
      const note = retryAfter !== null ? ' (Retry-After)' : '';
      await this.retryLater(`${method} ${path}`, attempt, why, wait, note);
    }
  }

  private async retryLater(
    request: string,
    attempt: number,
    why: string,
    wait: number,
    note = '',
  ): Promise<void> {
    this.log(`${request}: ${why}; retry ${attempt}/${this.retries} in ${seconds(wait)}${note}`);
    await this.sleep(wait);
  }

  /**
   * The service answers `Location: /api/v1/...`, relative to its own root, which behind a reverse proxy with a
   * path prefix (api-url `https://tools.example.com/a11y`) is the prefix: resolved against the host alone
   * it would lose the prefix and point nowhere.
   */
  private resolveLocation(location: string): string {
    if (location.startsWith('/') && !location.startsWith('//')) return this.baseUrl + location;
    return new URL(location, this.baseUrl + '/').href;
  }
}
