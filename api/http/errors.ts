import type { NextFunction, Request, Response } from 'express';
import type { ApiContext } from '../context.js';
import { DomainError } from '../domain/errors.js';
import { LimitError } from '../domain/access/limits.js';
import { HttpProblem, problemBody, problems } from './problem.js';

/**
 * The last middleware: every error becomes problem+json. Client mistakes arrive as HttpProblem; a lost
 * database is 503; anything else is a generic 500 whose cause goes to the log only.
 */
export function errorHandler(ctx: ApiContext, onLimit: (limit: string) => void = () => {}) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const problem = toProblem(err);
    if (problem.limit) onLimit(problem.limit.name);
    if (problem.status >= 500) {
      // The client gets a generic text and the request id; the log gets the cause.
      ((req as Request & { log?: ApiContext['logger'] }).log ?? ctx.logger).error({ err }, 'request failed');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(problem.status).set(problem.headers);
    res
      .type('application/problem+json')
      .send(JSON.stringify(problemBody(problem, String(res.locals.requestId))));
  };
}

/** The one mapping from any error to the problem a client reads (a fault of the service is a generic 500). */
export function toProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (err instanceof LimitError) return fromLimitError(err);
  if (err instanceof DomainError) return fromDomainError(err);
  // Express throws a URIError for a path parameter that is not valid percent-encoding (`/scans/%FF`):
  // such a path cannot name anything, so it is answered like a missing resource.
  if (err instanceof URIError) return problems.notFound();
  if (isUnavailable(err)) return problems.unavailable();
  return new HttpProblem(
    500,
    'internal',
    'An unexpected error occurred; quote the request id when reporting it.',
  );
}

/** The one mapping from the service's errors to HTTP. */
function fromDomainError(err: DomainError): HttpProblem {
  switch (err.kind) {
    case 'not_found':
      return new HttpProblem(404, 'not_found', err.message);
    case 'invalid':
      return problems.validation(err.errors ?? [], err.message);
    case 'too_large':
      return new HttpProblem(413, 'payload_too_large', err.message, err.errors);
    case 'conflict':
      return new HttpProblem(409, 'conflict', err.message, err.errors, {}, err.extra);
    case 'forbidden':
      return problems.forbidden(err.message);
    case 'precondition_failed':
      return new HttpProblem(412, 'precondition_failed', err.message, undefined, {}, err.extra);
  }
}

function fromLimitError(err: LimitError): HttpProblem {
  const code =
    err.status === 413 ? 'payload_too_large' : err.status === 429 ? 'rate_limited' : 'validation_failed';
  const errors = err.errors ?? (err.status === 422 ? [] : undefined);
  const headers: Record<string, string> =
    err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(err.retryAfterSeconds) };
  return new HttpProblem(err.status, code, err.message, errors, headers, undefined, {
    name: err.limit,
    value: err.value,
  });
}

function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; name?: string; message?: string };
  return (
    e?.name === 'KnexTimeoutError' ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001', 'SQLITE_BUSY'].includes(
      String(e?.code),
    ) ||
    /Connection terminated|pool is probably full|Unable to acquire a connection/i.test(String(e?.message))
  );
}
