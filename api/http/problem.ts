import type { FieldError } from '../domain/errors.js';

/**
 * Errors as RFC 9457 problem details. Handlers throw HttpProblem; the error middleware turns it (and
 * anything else) into `application/problem+json` with a stable `code`.
 */
export type ProblemCode =
  | 'malformed_json'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

const TITLES: Record<ProblemCode, string> = {
  malformed_json: 'Malformed JSON',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  precondition_failed: 'Precondition failed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Validation failed',
  idempotency_key_reused: 'Idempotency key reused',
  rate_limited: 'Too many requests',
  internal: 'Internal server error',
  unavailable: 'Service unavailable',
};

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    /** Members added to the problem body (RFC 9457 extensions), e.g. the current state on a 412. */
    readonly extra?: Record<string, unknown>,
    /** The limit a refusal names (`limit`, `limit_value` in the body), so a client can tell which it hit. */
    readonly limit?: { name: string; value: number },
  ) {
    super(detail);
    this.name = 'HttpProblem';
  }

  get title(): string {
    return TITLES[this.code];
  }
}

export const problems = {
  malformedJson: (detail = 'The request body is not valid JSON.') =>
    new HttpProblem(400, 'malformed_json', detail),
  unauthorized: (
    detail = 'A valid API key is required, as x-api-key: a11y_… or Authorization: Bearer a11y_….',
  ) =>
    new HttpProblem(401, 'unauthorized', detail, undefined, {
      'WWW-Authenticate': 'Bearer realm="a11y-gate", charset="UTF-8"',
    }),
  forbidden: (detail: string) => new HttpProblem(403, 'forbidden', detail),
  notFound: (what = 'resource') => new HttpProblem(404, 'not_found', `No such ${what}.`),
  conflict: (detail: string) => new HttpProblem(409, 'conflict', detail),
  payloadTooLarge: (detail: string) => new HttpProblem(413, 'payload_too_large', detail),
  unsupportedMediaType: (detail = 'Send the body as application/json.') =>
    new HttpProblem(415, 'unsupported_media_type', detail),
  validation: (errors: FieldError[], detail?: string) =>
    new HttpProblem(
      422,
      'validation_failed',
      detail ?? `The request has ${errors.length} invalid field${errors.length === 1 ? '' : 's'}.`,
      errors,
    ),
  unavailable: (detail = 'The service is temporarily unavailable.') =>
    new HttpProblem(503, 'unavailable', detail),
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  request_id: string;
  errors?: FieldError[];
  [extension: string]: unknown;
  limit?: string;
  limit_value?: number;
}

export function problemBody(p: HttpProblem, requestId: string): ProblemBody {
  const body: ProblemBody = {
    type: `https://a11y-gate.dev/problems/${p.code.replace(/_/g, '-')}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    code: p.code,
    request_id: requestId,
  };
  if (p.errors) body.errors = p.errors;
  if (p.limit) {
    body.limit = p.limit.name;
    body.limit_value = p.limit.value;
  }
  return p.extra ? { ...p.extra, ...body } : body;
}

/** `["pages", 3, "issues", 7, "impact"]` → `#/pages/3/issues/7/impact` (RFC 6901, escaped). */
export function jsonPointer(path: ReadonlyArray<PropertyKey>, prefix = '#'): string {
  return prefix + path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
