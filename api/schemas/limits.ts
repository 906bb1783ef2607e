import type { LimitName } from '../domain/access/limits.js';
import { z } from './zod.js';

const DESCRIPTIONS: Record<LimitName, string> = {
  body_bytes: 'Bytes of one request body, after decompression (413).',
  pages_per_request: 'Pages in one request: a whole scan, or one part (413).',
  issues_per_request: 'Issues in one request: a whole scan, or one part (413).',
  pages_per_scan: 'Pages of one scan, all its parts together (413; the part that would pass it is refused).',
  issues_per_scan: 'Issues of one scan, all its parts together (413).',
  issue_html_bytes: "Bytes of one issue's `html`; longer is truncated and flagged, not refused.",
  open_scans_per_org: 'Scans of an org open for parts at once (422).',
  review_request_bytes: 'Bytes of one review request body (413).',
  versions_per_report: 'Stored versions of one report, reviews and regenerations together (422).',
  sessions_per_key: 'Console sessions signed in with one key at once; a new sign-in ends the oldest.',
  keys_per_org:
    'API keys of an org that still authenticate: not revoked, not expired; a rotated key until its grace period ends (422).',
  webhooks_per_org: 'Webhook subscriptions of an org (422).',
  waivers_per_org: 'Waivers of an org not revoked (422).',
  sites_per_org: 'Sites of an org, created by configuring one or by its first scan (422).',
  requests_per_minute_per_key: 'Requests per minute per API key (429).',
  auth_failures_per_minute_per_ip: 'Failed authentications per minute per client address (429).',
  pings_per_minute_per_webhook: 'Pings per minute per webhook subscription (429).',
  pages_per_assessment: "Pages of an assessment's sample, created or imported (422).",
  results_per_import:
    'Results (EARL assertions, or Accessibility Insights requirements) in one imported file: one per WCAG 2.x ' +
    'criterion for each page of the largest sample and for the whole sample (422).',
  json_depth_per_import: "Nesting depth of an imported file's JSON (422).",
  json_values_per_import:
    "Values of an imported file's JSON, counted before it is parsed: each object and array, and each element " +
    'or member after a first (422).',
  json_ld_terms_per_import:
    "Term definitions in all of an imported JSON-LD file's contexts (422): a context is processed wherever it applies.",
};

/** The limits as `GET /api/v1` publishes them: each name says what it counts and per what. */
export const PublishedLimits = z
  .object(
    Object.fromEntries(
      Object.entries(DESCRIPTIONS).map(([name, description]) => [
        name,
        z.number().int().openapi({ description }),
      ]),
    ) as Record<LimitName, z.ZodNumber>,
  )
  .openapi('Limits', { description: 'The configured limits; past one the problem names it (`limit`).' });
