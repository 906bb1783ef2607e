import type { Request, Response } from 'express';
import type { ZodType } from 'zod';
import type { Scope } from '../domain/access/api-key.js';
import type { Principal } from '../context.js';
import type { Limits } from '../config.js';

/**
 * One declaration per endpoint: method, path, access, the zod schemas of its input and output, and
 * the handler. The same declaration mounts the express route, validates the request, documents the
 * endpoint in OpenAPI and lists it at GET /api/v1, so the three can never drift apart.
 */
/**
 * `admin-token` = the service's admin token only; `org-admin` = the admin token, or a key with the
 * `admin` scope acting within its own org; `key` = any valid API key, whatever its scopes; a list of
 * scopes = a key with any one of them.
 */
export type Access = 'public' | 'admin-token' | 'org-admin' | 'key' | Scope | Scope[];

/** How an access rule reads in the OpenAPI document and `GET /api/v1` (`gate or read`). */
export function accessLabel(access: Access): string {
  if (access === 'public') return 'none';
  if (access === 'org-admin') return 'admin token or admin';
  return Array.isArray(access) ? access.join(' or ') : access;
}

/** Whether the route accepts an API key (and so counts against the key's rate budget). */
export function takesKey(access: Access): boolean {
  return access !== 'public' && access !== 'admin-token';
}

export interface ResponseSpec {
  description: string;
  /** JSON body schema (content type application/json). */
  schema?: ZodType;
  /** Other representations, e.g. `{ 'text/html': z.string() }`. */
  content?: Record<string, ZodType>;
  headers?: Record<string, string>;
}

export interface RouteContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  /** The key's org; empty for admin and public routes. */
  org: string;
  requestId: string;
  req: Request;
  res: Response;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Defaults to application/json; a string body with another type is sent as is. */
  contentType?: string;
}

/** A handler that wrote the response itself (streaming) returns `'sent'`. */
export type HandlerResult = Reply | 'sent';

export interface RouteDef<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path from the root, e.g. `/api/v1/scans/:id`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /**
   * The handler reads the body itself from `req.rawBody` (bytes, size-limited, decompressed) and
   * validates it in parts; `body` still documents it. For scans, whose pages are validated one by one.
   */
  rawBody?: boolean;
  /** Set when the operation is deprecated (docs/api.md): its answers carry Deprecation and Sunset. */
  deprecated?: Deprecation;
  /** A smaller body limit than `body_bytes` for this route, and the name it is published under. */
  bodyLimit?: { name: string; bytes: (limits: Limits) => number };
  /** A heavy write: it waits its turn in the write queue (http/write-queue.ts) before its body is read. */
  queued?: boolean;
  responses: Record<number, ResponseSpec>;
  /**
   * The answer holds a secret shown once (an API key, a webhook signing secret). An Idempotency-Key
   * replay must return it again, so the stored copy is kept, but encrypted at rest like the secrets.
   */
  secretInAnswer?: boolean;
  handler: (ctx: RouteContext<P, Q, B>) => Promise<HandlerResult>;
}

/** Identity function that infers P, Q and B from the schemas, so handlers are typed. */
export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  def: RouteDef<P, Q, B>,
): RouteDef<P, Q, B> {
  return def;
}

export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDef<any, any, any>;

/** A deprecation notice (docs/api.md): dates as `YYYY-MM-DD`, at least six months apart. */
export interface Deprecation {
  since: string;
  sunset: string;
  /** What replaces it, for the OpenAPI description. */
  notice: string;
}

/** The minimum notice between a deprecation and its sunset. */
export const MIN_DEPRECATION_NOTICE_DAYS = 183;

/** `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the link to the notice; refuses a short notice. */
export function deprecationHeaders(d: Deprecation): Record<string, string> {
  const since = Date.parse(`${d.since}T00:00:00Z`);
  const sunset = Date.parse(`${d.sunset}T00:00:00Z`);
  if (!(sunset - since >= MIN_DEPRECATION_NOTICE_DAYS * 86_400_000)) {
    throw new Error(
      `a deprecation needs ${MIN_DEPRECATION_NOTICE_DAYS} days of notice (${d.since} to ${d.sunset})`,
    );
  }
  return {
    Deprecation: `@${Math.floor(since / 1000)}`,
    Sunset: new Date(sunset).toUTCString(),
    // The notice itself is in the operation's entry of the OpenAPI document, served by this server.
    Link: '</api/v1/openapi.json>; rel="deprecation"; type="application/json"',
  };
}
