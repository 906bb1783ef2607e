import { ApiError } from './errors.js';
import { responseLinks, type ApiResponse } from './response.js';
import { parseRetryAfter } from '../core/retry-after.js';
import { isTransient } from './retry.js';

/** How one answer to a request reads: the response, a transient failure worth another attempt, or an ApiError. */

interface Problem {
  title?: string;
  detail?: string;
  code?: string;
  request_id?: string;
  errors?: { pointer: string; detail: string }[];
  missing_shards?: unknown;
  scan_status?: unknown;
}

export interface AnswerContext {
  /** The request's method, as messages name it (default POST). */
  method?: 'POST' | 'GET';
  path: string;
  attempt: number;
  /** No retry is left: a transient failure is an outage. */
  last: boolean;
  resolveLocation: (location: string) => string;
}

export type Reading<T> =
  | { response: ApiResponse<T> }
  /** Retry-After in milliseconds when the service sent one. */
  | { retry: { status: number; code?: string; retryAfter: number | null } };

/** Reads an answer whose whole text arrived; throws ApiError for what is not to be retried. */
export function readAnswer<T>(ctx: AnswerContext, res: Response, text: string): Reading<T> {
  const requestId = res.headers.get('x-request-id');
  if (res.ok) return { response: success<T>(ctx, res, text, requestId) };
  if (res.status >= 300 && res.status < 400) {
    const target = res.headers.get('location');
    throw new ApiError(
      'rejected',
      `${ctx.method ?? 'POST'} ${ctx.path} answered ${res.status}${target ? ` (a redirect to ${target})` : ''}: set api-url to where the service answers; redirects are not followed, so the key is never sent elsewhere`,
      { status: res.status, requestId: requestId ?? undefined, attempts: ctx.attempt },
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
    attempts: ctx.attempt,
  };
  const message = describe(`${ctx.method ?? 'POST'} ${ctx.path}`, res.status, problem, detail);
  // Shards that have not reported are the scan's state, not a request still running: no retry changes it.
  if (res.status === 409 && Array.isArray(problem.missing_shards)) {
    const missingShards = problem.missing_shards.filter((n): n is number => typeof n === 'number');
    throw new ApiError('rejected', message, { ...details, missingShards });
  }
  if (res.status === 409 && problem.scan_status === 'complete') {
    throw new ApiError('rejected', message, { ...details, scanComplete: true });
  }
  if (!isTransient(res.status)) throw new ApiError('rejected', message, details);
  if (ctx.last) throw new ApiError('outage', `${message} (after ${ctx.attempt} attempts)`, details);
  return {
    retry: {
      status: res.status,
      code: problem.code,
      retryAfter: parseRetryAfter(res.headers.get('retry-after')),
    },
  };
}

function success<T>(
  ctx: AnswerContext,
  res: Response,
  text: string,
  requestId: string | null,
): ApiResponse<T> {
  let parsed: T;
  try {
    parsed = JSON.parse(text) as T;
  } catch {
    // The whole answer arrived, and it is not the API's: a wrong api-url or an SSO proxy's page, a
    // configuration mistake that fail-on-error: false must not hide.
    const type = res.headers.get('content-type')?.split(';')[0]?.trim();
    throw new ApiError(
      'rejected',
      `${ctx.method ?? 'POST'} ${ctx.path} answered ${res.status}${type ? ` ${type}` : ''} that is not JSON: is api-url the a11y-gate service (and not a sign-in page in front of it)?`,
      { status: res.status, requestId: requestId ?? undefined, attempts: ctx.attempt },
    );
  }
  return {
    status: res.status,
    body: parsed,
    ...responseLinks(res.headers, ctx.resolveLocation),
    replayed: res.headers.get('idempotent-replayed') === 'true',
    requestId,
  };
}

function parseProblem(text: string): Problem {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

function describe(request: string, status: number, problem: Problem, detail: string): string {
  const code = problem.code ? ` ${problem.code}` : '';
  const fields = (problem.errors ?? [])
    .slice(0, 10)
    .map((e) => `${e.pointer}: ${e.detail}`)
    .join('; ');
  return `${request} answered ${status}${code}: ${detail}${fields ? ` (${fields})` : ''}`;
}
