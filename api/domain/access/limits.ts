import { DomainError, type FieldError } from '../errors.js';

/**
 * Every quantity a tenant can make grow, under the name the API publishes it with: the name says what
 * is counted and per what (request, scan, report, key, org), so a client can tell which one it hit.
 */
export const LIMIT_NAMES = [
  'body_bytes',
  'pages_per_request',
  'issues_per_request',
  'pages_per_scan',
  'issues_per_scan',
  'issue_html_bytes',
  'open_scans_per_org',
  'review_request_bytes',
  'versions_per_report',
  'sessions_per_key',
  'keys_per_org',
  'webhooks_per_org',
  'waivers_per_org',
  'sites_per_org',
  'requests_per_minute_per_key',
  'auth_failures_per_minute_per_ip',
  'pings_per_minute_per_webhook',
  'pages_per_assessment',
  'results_per_import',
  'json_depth_per_import',
  'json_values_per_import',
  'json_ld_terms_per_import',
] as const;

export type LimitName = (typeof LIMIT_NAMES)[number];

/** A refusal because a limit was reached: 413 for a size, 422 for a count, 429 for a rate. */
export class LimitError extends DomainError {
  constructor(
    readonly limit: LimitName,
    readonly value: number,
    readonly status: 413 | 422 | 429,
    detail: string,
    errors?: FieldError[],
    /** For a rate (429): when the window ends. */
    readonly retryAfterSeconds?: number,
  ) {
    super(status === 413 ? 'too_large' : 'invalid', detail, errors);
    this.name = 'LimitError';
  }
}

/** An org already holds `value` of something: one more is refused (422), nothing is stored. */
export function countLimitReached(limit: LimitName, value: number, what: string): LimitError {
  return new LimitError(limit, value, 422, `The limit ${limit} (${value}) is reached: ${what}.`);
}

/** Throws when `current + adding` would pass `value`. */
export function checkCount(limit: LimitName, value: number, current: number, what: string, adding = 1): void {
  if (current + adding > value) throw countLimitReached(limit, value, what);
}
