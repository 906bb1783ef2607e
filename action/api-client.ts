import { gzipSync } from 'node:zlib';
import { responseLinks, type ApiResponse } from './api-response.js';

export type { ApiResponse };

/**
 * A small client for the a11y-gate REST API: JSON over fetch, every POST with an Idempotency-Key, and
 * retries for what is transient (network errors, timeouts, 408/409/425/429 and 5xx). Retrying a POST is
 * safe because the service replays an answer for the same Idempotency-Key and body.
 */

/** What went wrong, in the two kinds the action treats differently (see `fail-on-error`). */
export type ApiErrorKind =
  /** The service could not be reached or did not answer usefully after every retry: an outage. */
  | 'outage'
  /** The service answered with a 4xx: a mistake in the request, the key or the inputs. */
  | 'rejected';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly details: {
      status?: number;
      code?: string;
      detail?: string;
      requestId?: string;
      errors?: { pointer: string; detail: string }[];
      attempts: number;
    },
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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

interface Problem {
  title?: string;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: { pointer: string; detail: string }[];
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);

export class ApiClient {
  private readonly baseUrl: string;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly timeoutMs: number;
  private readonly gzipAboveBytes: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly log: (message: string) => void;
  private readonly random: () => number;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retries = options.retries ?? 4;
    this.retryDelayMs = options.retryDelayMs ?? 2_000;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.gzipAboveBytes = options.gzipAboveBytes ?? 64 * 1024;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.log = options.log ?? (() => undefined);
    this.random = options.random ?? Math.random;
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

  /** POSTs JSON to `path` (e.g. `/api/v1/scans`), retrying transient failures with the same key. */
  async post<T>(
    path: string,
    body: unknown,
    idempotencyKey: string,
    options: { timeoutMs?: number } = {},
  ): Promise<ApiResponse<T>> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const json = Buffer.from(JSON.stringify(body), 'utf8');
    const compress = json.length > this.gzipAboveBytes;
    const payload = compress ? gzipSync(json) : json;
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, application/problem+json',
      'idempotency-key': idempotencyKey,
      'user-agent': this.options.userAgent ?? 'a11y-gate-action',
      ...(compress ? { 'content-encoding': 'gzip' } : {}),
    };
    const url = this.baseUrl + path;

    for (let attempt = 1; ; attempt++) {
      const last = attempt > this.retries;
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers,
          body: payload,
          // Not followed: a redirect would carry the key to another host (or turn the POST into a GET).
          // 'manual' rather than 'error' so it is reported as the configuration mistake it is, not as an
          // outage that `fail-on-error: false` would wave through.
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        // Read inside the try: a connection that breaks mid-answer is a network error, retried like one.
        text = await res.text();
      } catch (err) {
        const why = networkReason(err, timeoutMs);
        if (last) {
          throw new ApiError('outage', `POST ${path} failed after ${attempt} attempts: ${why}`, {
            attempts: attempt,
          });
        }
        const wait = this.backoff(attempt);
        this.log(`POST ${path}: ${why}; retry ${attempt}/${this.retries} in ${seconds(wait)}`);
        await this.sleep(wait);
        continue;
      }

      const requestId = res.headers.get('x-request-id');
      if (res.ok) {
        let parsed: T;
        try {
          parsed = JSON.parse(text) as T;
        } catch {
          // The whole answer arrived, and it is not the API's: a wrong api-url or an SSO proxy's page, a
          // configuration mistake that fail-on-error: false must not hide.
          const type = res.headers.get('content-type')?.split(';')[0]?.trim();
          throw new ApiError(
            'rejected',
            `POST ${path} answered ${res.status}${type ? ` ${type}` : ''} that is not JSON: is api-url the a11y-gate service (and not a sign-in page in front of it)?`,
            { status: res.status, requestId: requestId ?? undefined, attempts: attempt },
          );
        }
        return {
          status: res.status,
          body: parsed,
          ...responseLinks(res.headers, (l) => this.resolveLocation(l)),
          replayed: res.headers.get('idempotent-replayed') === 'true',
          requestId,
        };
      }

      if (res.status >= 300 && res.status < 400) {
        const target = res.headers.get('location');
        throw new ApiError(
          'rejected',
          `POST ${path} answered ${res.status}${target ? ` (a redirect to ${target})` : ''}: set api-url to where the service answers; redirects are not followed, so the key is never sent elsewhere`,
          { status: res.status, requestId: requestId ?? undefined, attempts: attempt },
        );
      }

      const problem = parseProblem(text);
      const detail = problem.detail ?? problem.title ?? (res.statusText || `HTTP ${res.status}`);
      const details = {
        status: res.status,
        code: problem.code,
        detail,
        requestId: problem.request_id ?? requestId ?? undefined,
        errors: problem.errors,
        attempts: attempt,
      };
      const transient = res.status >= 500 || RETRYABLE_STATUS.has(res.status);
      if (!transient) {
        throw new ApiError('rejected', describe(path, res.status, problem, detail), details);
      }
      if (last) {
        throw new ApiError(
          'outage',
          `${describe(path, res.status, problem, detail)} (after ${attempt} attempts)`,
          details,
        );
      }
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      const wait = retryAfter !== null ? Math.min(retryAfter, this.maxRetryAfterMs) : this.backoff(attempt);
      this.log(
        `POST ${path}: ${res.status}${problem.code ? ` ${problem.code}` : ''}; retry ${attempt}/${this.retries} in ${seconds(wait)}` +
          (retryAfter !== null ? ' (Retry-After)' : ''),
      );
      await this.sleep(wait);
    }
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

  /** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries spread out. */
  private backoff(attempt: number): number {
    const full = Math.min(this.maxRetryDelayMs, this.retryDelayMs * 2 ** (attempt - 1));
    return Math.round(full / 2 + (this.random() * full) / 2);
  }
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

function parseProblem(text: string): Problem {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

function describe(path: string, status: number, problem: Problem, detail: string): string {
  const code = problem.code ? ` ${problem.code}` : '';
  const fields = (problem.errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.pointer}: ${e.detail}`)
    .join('; ');
  return `POST ${path} answered ${status}${code}: ${detail}${fields ? ` (${fields})` : ''}`;
}

function networkReason(err: unknown, timeoutMs: number): string {
  // Duck-typed rather than `instanceof Error`: fetch's errors may come from another realm (undici, jest's vm).
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${seconds(timeoutMs)}`;
  const base = e.message ?? String(err);
  // undici puts the useful part (ECONNREFUSED, ENOTFOUND, certificate errors) in `cause`.
  const cause = typeof e.cause === 'object' && e.cause !== null ? e.cause : undefined;
  if (cause?.code) return `${base} (${cause.code}${cause.message ? `: ${cause.message}` : ''})`;
  if (cause?.message) return `${base} (${cause.message})`;
  return base;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}
