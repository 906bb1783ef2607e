import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import type { Limits } from '../config.js';
import type { LimitName } from '../domain/access/limits.js';
import { MAX_SAMPLE } from '../domain/vpat/assessments/assessment.js';
import {
  MAX_IMPORT_DEPTH,
  MAX_IMPORT_RESULTS,
  MAX_IMPORT_VALUES,
  MAX_CONTEXT_TERMS,
} from '../domain/vpat/assessments/import-bounds.js';
import { Problem } from '../schemas/common.js';
import { z } from '../schemas/zod.js';
import type { OpenApiWebhook } from '../schemas/webhook-events.js';
import { accessLabel, openApiPath, takesKey, type AnyRoute, type ResponseSpec } from './route.js';

export interface OpenApiInput {
  version: string;
  limits: Limits;
  routes: AnyRoute[];
  webhooks?: OpenApiWebhook[];
}

const HEADER_DOCS: Record<string, string> = {
  Location: 'URL of the created resource.',
  Link: 'RFC 8288 link to the next page (`rel="next"`).',
  'Idempotent-Replayed': '`true` when this answer replays an earlier request with the same Idempotency-Key.',
  'Retry-After': 'Seconds to wait before retrying.',
  'WWW-Authenticate': 'Bearer challenge.',
  Allow: 'Methods this path supports.',
};

const RATE_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
];

function headerObject(names: string[]) {
  const out: Record<string, { description: string; schema: { type: 'string' } }> = {
    'X-Request-Id': {
      description: 'The request id (echoed or generated); quote it when reporting a problem.',
      schema: { type: 'string' },
    },
  };
  for (const n of names) {
    out[n] = { description: HEADER_DOCS[n] ?? `${n} (IETF RateLimit fields).`, schema: { type: 'string' } };
  }
  return out;
}

function problemResponse(description: string, headers: string[] = []) {
  return {
    description,
    headers: headerObject(headers),
    content: { 'application/problem+json': { schema: Problem } },
  };
}

function accessText(route: AnyRoute): string {
  const a = route.access;
  if (a === 'public') return 'No credential required.';
  if (a === 'admin-token') return 'Requires the admin token.';
  if (a === 'key') return 'Requires any valid API key.';
  if (a === 'org-admin') {
    return (
      'Requires the admin token (every org), or an API key with the `admin` scope, which acts within its ' +
      "own org only: another org's key is 404, like a missing one."
    );
  }
  return Array.isArray(a)
    ? `Requires an API key with one of the scopes ${a.map((s) => `\`${s}\``).join(', ')}.`
    : `Requires an API key with the \`${a}\` scope.`;
}

/** The error answers every route of a kind can give, so clients and the contract tests know them all. */
function standardErrors(route: AnyRoute): RouteConfig['responses'] {
  const keyed = takesKey(route.access);
  const rate = keyed ? RATE_HEADERS : [];
  const out: RouteConfig['responses'] = {
    500: problemResponse('Unexpected error (generic text and a request id only).'),
    503: route.queued
      ? problemResponse(
          'Database unavailable, the service is shutting down, or this write could not start within ' +
            'WRITE_QUEUE_WAIT_MS because the scans and gate triggers ahead of it took every turn ' +
            '(WRITE_CONCURRENCY); nothing was stored: retry after Retry-After seconds.',
          ['Retry-After'],
        )
      : problemResponse('Database unavailable or the service is shutting down.'),
  };
  if (route.access !== 'public') {
    out[401] = problemResponse('Missing, malformed, unknown, revoked or expired credential.', [
      'WWW-Authenticate',
    ]);
    out[429] = problemResponse('Rate limit exceeded (per key, or failed authentications per IP).', [
      'Retry-After',
      ...RATE_HEADERS,
    ]);
  }
  if (keyed) out[403] = problemResponse('The key lacks the required scope.', rate);
  if (route.params || route.access !== 'public')
    out[404] = problemResponse("No such resource (or another org's).", rate);
  if (route.query || route.body || route.params) {
    out[422] = problemResponse(
      'Schema violation, with `errors[]` JSON pointers; or `idempotency_key_reused`.',
      rate,
    );
  }
  if (route.body) {
    out[400] = problemResponse('The body is not valid JSON.', rate);
    out[413] = problemResponse('The body is larger than the limit (after decompression).', rate);
    out[415] = problemResponse('The body is not application/json.', rate);
  }
  if (route.method === 'put')
    out[412] = problemResponse(
      'If-Match names a version that is no longer current; `current` holds it.',
      rate,
    );
  if (route.method === 'post' || route.method === 'patch')
    out[409] = problemResponse('Conflicting state, or the same Idempotency-Key is still running.', rate);
  if (route.method === 'delete')
    out[409] = problemResponse('Something still needs the resource; `detail` says what.', rate);
  return out;
}

function successResponse(spec: ResponseSpec, keyed: boolean, isPost: boolean) {
  const names = [...(spec.headers ? Object.keys(spec.headers) : [])];
  if (keyed) names.push(...RATE_HEADERS);
  if (isPost) names.push('Idempotent-Replayed');
  const headers = headerObject(names);
  for (const [n, d] of Object.entries(spec.headers ?? {})) {
    headers[n] = { description: d || HEADER_DOCS[n] || n, schema: { type: 'string' } };
  }
  const content: Record<string, { schema: ZodType }> = {};
  if (spec.schema) content['application/json'] = { schema: spec.schema };
  for (const [type, schema] of Object.entries(spec.content ?? {})) content[type] = { schema };
  return {
    description: spec.description,
    headers,
    ...(Object.keys(content).length ? { content } : {}),
  };
}

/** The credentials an operation may name: an API key (two headers) and the admin token. */
function registerSecuritySchemes(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key `a11y_<public id>_<secret><checksum>` as `Authorization: Bearer …`.',
  });
  registry.registerComponent('securitySchemes', 'ApiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description:
      'The same API key in the `x-api-key` header; every operation that takes a key accepts either.',
  });
  registry.registerComponent('securitySchemes', 'AdminToken', {
    type: 'apiKey',
    in: 'header',
    name: 'x-admin-token',
    description: 'The service admin token (ADMIN_TOKEN or ./data/admin-token).',
  });
}

/** One route's operation: its parameters, body, access, standard errors and answers. */
function registerRoute(registry: OpenAPIRegistry, route: AnyRoute): void {
  const keyed = takesKey(route.access);
  const responses: RouteConfig['responses'] = { ...standardErrors(route) };
  for (const [status, spec] of Object.entries(route.responses)) {
    responses[Number(status)] = successResponse(spec, keyed, route.method === 'post');
  }
  const headers =
    route.method === 'post'
      ? z.object({
          'Idempotency-Key': z.string().max(255).optional().openapi({
            description: 'Makes a retry safe: the same key and body within 24 h replays the first answer.',
          }),
        })
      : undefined;
  registry.registerPath({
    method: route.method,
    path: openApiPath(route.path),
    summary: route.summary,
    deprecated: route.deprecated ? true : undefined,
    description:
      (route.deprecated
        ? `**Deprecated** since ${route.deprecated.since}; it may stop working after ${route.deprecated.sunset}. ${route.deprecated.notice}\n\n`
        : '') +
      (route.description ? route.description + '\n\n' : '') +
      accessText(route),
    tags: [route.tag],
    // Alternatives: either credential header carries the key (and the admin token where it is accepted).
    security: [
      ...(keyed ? [{ ApiKey: [] }, { ApiKeyHeader: [] }] : []),
      ...(route.access === 'admin-token' || route.access === 'org-admin' ? [{ AdminToken: [] }] : []),
    ],
    'x-required-scope': keyed && route.access !== 'key' ? accessLabel(route.access) : undefined,
    request: {
      params: route.params as never,
      query: route.query as never,
      headers: headers as never,
      body: route.body
        ? { required: true, content: { 'application/json': { schema: route.body } } }
        : undefined,
    },
    responses,
  });
}

/** One event the service delivers to webhook subscribers. */
function registerWebhook(registry: OpenAPIRegistry, hook: OpenApiWebhook): void {
  registry.registerWebhook({
    method: 'post',
    path: hook.name,
    summary: hook.summary,
    description:
      'Delivered per the Standard Webhooks spec: headers `webhook-id`, `webhook-timestamp`, `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the subscription secret).',
    request: { body: { content: { 'application/json': { schema: hook.payload } } } },
    responses: {
      200: { description: 'Any 2xx acknowledges the delivery; 410 disables the subscription.' },
    },
  });
}

export function generateOpenApi(input: OpenApiInput) {
  const registry = new OpenAPIRegistry();
  registerSecuritySchemes(registry);
  for (const route of input.routes) registerRoute(registry, route);
  for (const hook of input.webhooks ?? []) registerWebhook(registry, hook);

  const generator = new OpenApiGeneratorV31(registry.definitions);

  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'a11y-gate API',
      version: input.version,
      description:
        'Accessibility scan results in, a deploy gate out, evidence-driven VPAT/ACR reports and signed webhooks. ' +
        'Errors are `application/problem+json` with a stable `code`. Every POST accepts `Idempotency-Key`. ' +
        'Lists are cursor-paginated (`limit` 1-100, `next_cursor`, `Link: rel="next"`). ' +
        'A path that exists under another method answers 405 (`method_not_allowed`) with `Allow`. ' +
        '`/mcp`, beside `/api/v1`, is not REST and is not described here: it serves the Model Context Protocol ' +
        '(Streamable HTTP, JSON-RPC, no sessions) to coding agents, with the same API key as `Authorization: Bearer` ' +
        '(tools `gate`, `deploy_issues`, `explain`; see docs/agents.md).',
      'x-limits': publishedLimits(input.limits),
    },
    servers: [{ url: '/' }],
  });
}

/** The service's limits under the names the API publishes them (GET /api/v1 and the OpenAPI document). */
export function publishedLimits(l: Limits): Record<LimitName, number> {
  return {
    body_bytes: l.bodyBytes,
    pages_per_request: l.pagesPerRequest,
    issues_per_request: l.issuesPerRequest,
    pages_per_scan: l.pagesPerScan,
    issues_per_scan: l.issuesPerScan,
    issue_html_bytes: l.issueHtmlBytes,
    open_scans_per_org: l.openScansPerOrg,
    review_request_bytes: l.reviewRequestBytes,
    versions_per_report: l.versionsPerReport,
    sessions_per_key: l.sessionsPerKey,
    keys_per_org: l.keysPerOrg,
    webhooks_per_org: l.webhooksPerOrg,
    waivers_per_org: l.waiversPerOrg,
    sites_per_org: l.sitesPerOrg,
    requests_per_minute_per_key: l.requestsPerMinute,
    auth_failures_per_minute_per_ip: l.authFailuresPerMinute,
    pings_per_minute_per_webhook: l.pingsPerMinutePerWebhook,
    // Fixed, not configured: the same sample bound as creating an assessment.
    pages_per_assessment: MAX_SAMPLE,
    results_per_import: MAX_IMPORT_RESULTS,
    json_depth_per_import: MAX_IMPORT_DEPTH,
    json_values_per_import: MAX_IMPORT_VALUES,
    json_ld_terms_per_import: MAX_CONTEXT_TERMS,
  };
}
