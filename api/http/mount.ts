import { createHash } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { webhookSecretBox } from '../secret-box.js';
import {
  beginIdempotentRequest,
  completeIdempotentRequest,
  releaseIdempotentRequest,
} from '../store/requests/idempotency.js';
import type { RateLimitStore } from '../store/access/rate-limits.js';
import type { Authenticator } from './auth.js';
import { createBodyReader } from './body/body.js';
import type { ApiContext } from '../context.js';
import { HttpProblem, problems } from './problem.js';
import { consumeKeyBudget } from './rate-limit.js';
import { deprecationHeaders, type AnyRoute, type Reply } from './route.js';
import { validateOrThrow } from './validate.js';
import { WriteQueueTimeout, type WriteQueue } from '../write-queue.js';

export interface MountDeps {
  ctx: ApiContext;
  auth: Authenticator;
  rateLimits: RateLimitStore;
}

/** Builds the /api/v1 router from the route declarations, with 405 for known paths and wrong methods. */
export function mountRoutes(routes: AnyRoute[], deps: MountDeps): Router {
  const router = express.Router();
  const readBody = createBodyReader(deps.ctx.config.limits.bodyBytes);
  const ownReaders = new Map<AnyRoute, ReturnType<typeof createBodyReader>>();
  for (const def of routes) {
    if (def.bodyLimit) {
      const bytes = Math.min(def.bodyLimit.bytes(deps.ctx.config.limits), deps.ctx.config.limits.bodyBytes);
      ownReaders.set(def, createBodyReader(bytes, def.bodyLimit.name));
    }
  }

  // Checked once at start: a deprecation with too short a notice stops the start (deprecationHeaders throws).
  const deprecations = new Map(
    routes.flatMap((d) => (d.deprecated ? [[d, deprecationHeaders(d.deprecated)]] : [])),
  );
  for (const def of routes) {
    router[def.method](def.path, (req: Request, res: Response, next: NextFunction) => {
      handle(def, req, res).catch(next);
    });
  }

  async function handle(def: AnyRoute, req: Request, res: Response): Promise<void> {
    if (deps.ctx.lifecycle.shuttingDown && def.method !== 'get') {
      throw problems.unavailable('The service is shutting down; retry shortly.');
    }
    const deprecation = deprecations.get(def);
    if (deprecation) res.set(deprecation);
    const principal = (await deps.auth.authenticate(req, def.access)) ?? { kind: 'admin' };
    if (principal.kind === 'key') {
      res.set(
        await consumeKeyBudget(deps.rateLimits, principal.keyId, deps.ctx.config.limits.requestsPerMinute),
      );
    }
    const params: unknown = def.params ? parseParams(def, req) : {};
    // The body's size is checked first: an oversized body is a 413 whatever else is wrong with the request.
    if (def.body) await (ownReaders.get(def) ?? readBody)(req, res, def.rawBody);
    if (def.query) refuseNulInQuery(req.query);
    const query: unknown = def.query ? validateOrThrow(def.query, req.query, '#/query') : {};
    const body: unknown =
      def.body && !def.rawBody ? validateOrThrow(def.body, req.body as unknown, '#') : undefined;
    const org = principal.kind === 'key' ? principal.org : '';
    const run = () =>
      def.handler({ params, query, body, principal, org, requestId: String(res.locals.requestId), req, res });
    const owner = principal.kind === 'key' ? principal.keyId : 'admin';
    // A heavy write takes its turn once its body is in: a slow upload never holds up the others.
    const leave = def.queued ? await turnIn(deps.ctx.writes) : undefined;
    try {
      // A client that left while its request waited gets nothing done for it (it never saw an answer).
      if (leave && req.socket.destroyed) return;
      // Writes still waiting at SIGTERM are sent elsewhere rather than started during the drain.
      if (leave && deps.ctx.lifecycle.shuttingDown) {
        throw problems.unavailable('The service is shutting down; retry shortly.');
      }
      await answer(deps.ctx, def, req, res, run, owner);
    } finally {
      leave?.();
    }
  }

  return router;
}

async function turnIn(writes: WriteQueue): Promise<() => void> {
  try {
    return await writes.enter();
  } catch (err) {
    if (!(err instanceof WriteQueueTimeout)) throw err;
    throw new HttpProblem(
      503,
      'unavailable',
      `This instance could not start the request within ${err.waitedMs} ms: too many scans and gate triggers were ahead of it. Retry in a few seconds.`,
      undefined,
      { 'Retry-After': '5' },
    );
  }
}

/** Runs the handler and sends its answer, through the idempotency record when the POST carries a key. */
async function answer(
  ctx: ApiContext,
  def: AnyRoute,
  req: Request,
  res: Response,
  run: () => Promise<Reply | 'sent'>,
  owner: string,
): Promise<void> {
  const idemKey = def.method === 'post' ? req.get('idempotency-key') : undefined;
  if (!idemKey) {
    const result = await run();
    if (result !== 'sent') send(res, result);
    return;
  }
  await answerIdempotently(ctx, { def, req, res, run, owner, key: idemKey });
}

interface IdempotentCall {
  def: AnyRoute;
  req: Request;
  res: Response;
  run: () => Promise<Reply | 'sent'>;
  /** The key's id, or 'admin' for the admin token: keys are per principal. */
  owner: string;
  key: string;
}

/**
 * Runs a POST that carries an Idempotency-Key: a retry with the same key and body replays the first
 * answer, the same key with another body is refused, and a key still running answers 409.
 */
async function answerIdempotently(ctx: ApiContext, call: IdempotentCall): Promise<void> {
  const { def, req, res, run, owner, key } = call;
  const { db, requestLocks } = ctx;
  // Replay copies of answers that hold a secret are sealed with the service's secret key.
  const sealIf = (text: string) => (def.secretInAnswer ? webhookSecretBox(ctx).seal(text) : text);
  const openIf = (text: string) => (def.secretInAnswer ? webhookSecretBox(ctx).open(text) : text);
  if (key.length > 255) {
    throw problems.validation([
      { pointer: 'header:Idempotency-Key', detail: 'must be at most 255 characters' },
    ]);
  }
  const hash = createHash('sha256')
    .update(`${def.method} ${req.originalUrl.split('?')[0]} ${req.bodyHash ?? ''}`)
    .digest('hex');
  const begun = await beginIdempotentRequest(db, requestLocks, owner, key, hash);
  if (begun.state === 'mismatch') {
    throw new HttpProblem(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body.',
    );
  }
  if (begun.state === 'in_progress') {
    throw problems.conflict('A request with this Idempotency-Key is still being processed; retry later.');
  }
  if (begun.state === 'replay') {
    res.status(begun.response.status).set(begun.response.headers).set('Idempotent-Replayed', 'true');
    res.type('application/json').send(openIf(begun.response.body));
    return;
  }
  let result: Reply | 'sent';
  try {
    result = await run();
  } catch (err) {
    await releaseIdempotentRequest(db, requestLocks, owner, key).catch(() => undefined);
    throw err;
  }
  if (result === 'sent') {
    // A streamed answer cannot be replayed: forget the key rather than leave it started.
    await releaseIdempotentRequest(db, requestLocks, owner, key);
    return;
  }
  const text = serialize(result);
  if (result.status < 300) {
    await completeIdempotentRequest(db, requestLocks, owner, key, {
      status: result.status,
      headers: result.headers ?? {},
      body: sealIf(text),
    });
  } else {
    await releaseIdempotentRequest(db, requestLocks, owner, key);
  }
  send(res, result, text);
}

function parseParams(def: AnyRoute, req: Request): unknown {
  // No id or slug holds U+0000, and PostgreSQL would fail the query on it (a 500) instead of finding nothing.
  if (Object.values(req.params).some((v) => typeof v === 'string' && v.includes('\u0000'))) {
    throw problems.notFound();
  }
  const parsed = def.params!.safeParse(req.params);
  // A malformed id cannot name anything: answer exactly like a missing one.
  if (!parsed.success) throw problems.notFound();
  return parsed.data;
}

/** A query value holding U+0000 is refused before any schema or SQL sees it (PostgreSQL cannot compare it). */
function refuseNulInQuery(query: Request['query']): void {
  const errors = Object.entries(query ?? {})
    .filter(([, v]) => holdsNul(v))
    .map(([name]) => ({ pointer: `#/query/${name}`, detail: 'must not contain the NUL character (U+0000)' }));
  if (errors.length) throw problems.validation(errors);
}

function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  return Boolean(value && typeof value === 'object' && Object.values(value).some(holdsNul));
}

function serialize(reply: Reply): string {
  if (reply.body === undefined) return '';
  return typeof reply.body === 'string' && reply.contentType ? reply.body : JSON.stringify(reply.body);
}

function send(res: Response, reply: Reply, text = serialize(reply)): void {
  res.status(reply.status);
  if (reply.headers) res.set(reply.headers);
  if (reply.body === undefined) {
    res.end();
    return;
  }
  res.type(reply.contentType ?? 'application/json').send(text);
}

/** Paths that exist under another method answer 405 with `Allow`; anything else 404. */
export function methodNotAllowed(routes: AnyRoute[]) {
  const matchers = routes.map((r) => ({
    method: r.method.toUpperCase(),
    regex: new RegExp('^' + r.path.replace(/:[A-Za-z_]+/g, '[^/]+') + '/?$'),
  }));
  return (req: Request, _res: Response, next: NextFunction) => {
    const allowed = [...new Set(matchers.filter((m) => m.regex.test(req.path)).map((m) => m.method))];
    if (allowed.length === 0) return next(problems.notFound('endpoint'));
    if (allowed.includes('GET')) allowed.push('HEAD');
    next(
      new HttpProblem(405, 'method_not_allowed', `${req.method} is not supported here.`, undefined, {
        Allow: allowed.join(', '),
      }),
    );
  };
}
