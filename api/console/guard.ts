import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Scope } from '../domain/access/api-key.js';
import { DomainError } from '../domain/errors.js';
import type { ApiContext } from '../context.js';
import { rememberVisitor, sendForbidden, sendNotFound } from './errors.js';
import { csrfMatches, hasScope, opensPagesOf, redirectToSignIn, visitorOf, type Visitor } from './session.js';

export type PageHandler = (visitor: Visitor, req: Request, res: Response) => Promise<void>;

/**
 * The site a page shows (or shows part of), for sessions limited to some sites; `'own'` for a page that
 * itself shows only the visitor's sites.
 */
export type SiteOfPage = ((org: string, req: Request) => Promise<string> | string) | 'own';

/** Form bodies are small; a larger one is refused before it is read. */
const FORM_DEFAULTS = { limitBytes: 64 * 1024, parameterLimit: 50 };

/** A form that carries more than the default allows (the batch review form), with its own bounds. */
export interface FormBounds {
  limitBytes: number;
  parameterLimit: number;
}

const formReader = (b: FormBounds) =>
  express.urlencoded({ extended: false, limit: b.limitBytes, parameterLimit: b.parameterLimit });
const readForm = formReader(FORM_DEFAULTS);

function scopeText(scopes: Scope[]): string {
  return scopes.map((s) => `“${s}”`).join(' or ');
}

async function run(
  handler: PageHandler,
  visitor: Visitor,
  req: Request,
  res: Response,
  siteOf?: SiteOfPage,
): Promise<void> {
  try {
    // A session limited to some sites (signed in with GitHub) sees only their pages; any other page reads
    // as not found, like another org's.
    if (visitor.user.sites && siteOf !== 'own') {
      const site = siteOf ? await siteOf(visitor.user.org, req) : undefined;
      if (!opensPagesOf(visitor, site)) return sendNotFound(res, visitor);
    }
    await handler(visitor, req, res);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return sendNotFound(res, visitor);
    if (err instanceof DomainError && err.kind === 'forbidden')
      return sendForbidden(res, visitor, err.message);
    throw err;
  }
}

/**
 * A page for signed-in visitors whose key has one of `scopes`: without a session the visitor is sent to
 * sign in and brought back; without the scope the page says so (403). Services throw `not_found` for
 * another org's ids, which reads as a plain 404 page. A session limited to some sites sees only pages
 * whose `siteOf` is one of them.
 */
export function page(
  ctx: ApiContext,
  scopes: Scope[],
  handler: PageHandler,
  siteOf?: SiteOfPage,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    (async () => {
      const visitor = await visitorOf(ctx, req);
      if (!visitor) return redirectToSignIn(req, res);
      rememberVisitor(res, visitor);
      if (!hasScope(visitor, ...scopes)) {
        return sendForbidden(res, visitor, `This page needs a key with the ${scopeText(scopes)} scope.`);
      }
      await run(handler, visitor, req, res, siteOf);
    })().catch(next);
  };
}

/** A form's target: like `page`, and the form must carry this session's CSRF token. */
export function action(
  ctx: ApiContext,
  scopes: Scope[],
  handler: PageHandler,
  siteOf?: SiteOfPage,
  bounds?: FormBounds,
): RequestHandler[] {
  return [
    bounds ? formReader(bounds) : readForm,
    (req: Request, res: Response, next: NextFunction) => {
      (async () => {
        const visitor = await visitorOf(ctx, req);
        if (!visitor) return redirectToSignIn(req, res);
        rememberVisitor(res, visitor);
        if (!csrfMatches(visitor.csrf, (req.body as Record<string, unknown> | undefined)?._csrf)) {
          return sendForbidden(
            res,
            visitor,
            'This form was not sent from this console (its security token is missing or out of date). Go back, reload the page and try again.',
          );
        }
        if (!hasScope(visitor, ...scopes)) {
          return sendForbidden(res, visitor, `This needs a key with the ${scopeText(scopes)} scope.`);
        }
        await run(handler, visitor, req, res, siteOf);
      })().catch(next);
    },
  ];
}

/** A form field as one string ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const v = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : '';
}
