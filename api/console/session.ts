import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { safeEqual, type Scope } from '../domain/access/api-key.js';
import type { ApiContext } from '../context.js';
import { sessionUser, type ConsoleUser } from '../services/access/console-sessions.js';
import { gitHubSessionUser } from '../services/access/github-sessions.js';

export const SESSION_COOKIE = 'a11y_session';
/** Binds the sign-in form to the browser that loaded it (there is no session to bind it to yet). */
export const SIGN_IN_COOKIE = 'a11y_sign_in';

/** Who is asking, and the CSRF token every form of this session carries. */
export interface Visitor {
  user: ConsoleUser;
  csrf: string;
}

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The session's CSRF token, derived from its secret cookie token: a page from another site cannot know it. */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`console-csrf\u0000${sessionToken}`).digest('base64url');
}

export function cookieOptions(req: Request, maxAgeMs?: number) {
  // `req.secure` follows X-Forwarded-Proto from the trusted proxies (TRUST_PROXY), so HTTPS behind a
  // proxy gets Secure cookies too.
  return { httpOnly: true, sameSite: 'lax' as const, secure: req.secure, path: '/', maxAge: maxAgeMs };
}

export async function visitorOf(ctx: ApiContext, req: Request): Promise<Visitor | undefined> {
  const token = readCookie(req, SESSION_COOKIE);
  if (!token) return undefined;
  const user = (await sessionUser(ctx, token)) ?? (await gitHubSessionUser(ctx, token));
  return user ? { user, csrf: csrfTokenOf(token) } : undefined;
}

/** Where sign-in sends the visitor afterwards: only a path on this server, never another origin. */
export function safeNext(candidate: unknown): string {
  if (typeof candidate !== 'string' || candidate.length > 2000) return '/';
  if (!candidate.startsWith('/') || candidate.startsWith('//') || candidate.includes('\\')) return '/';
  if (candidate.startsWith('/sign-')) return '/';
  return candidate;
}

export function redirectToSignIn(req: Request, res: Response): void {
  res.redirect(303, `/sign-in?next=${encodeURIComponent(safeNext(req.originalUrl))}`);
}

export function csrfMatches(expected: string, given: unknown): boolean {
  return typeof given === 'string' && given.length > 0 && safeEqual(given, expected);
}

/**
 * The person a session stands for, when the session itself says who: a GitHub session's login. A key's
 * session does not (a key is not a person), so whoever reviews or signs types their own name.
 */
export function signerOf(visitor: Visitor): string | undefined {
  return visitor.user.githubLogin;
}

export function hasScope(visitor: Visitor, ...anyOf: Scope[]): boolean {
  return anyOf.length === 0 || anyOf.some((s) => visitor.user.scopes.includes(s));
}

/**
 * Whether the visitor may open a page of `site`, or (`undefined`) a page that is not one site's, such as a
 * report or an assessment: a session limited to some sites (signed in with GitHub) opens only pages of
 * those. The guard answers other pages with 404 by this rule, and lists leave out links it would refuse.
 */
export function opensPagesOf(visitor: Visitor, site: string | undefined): boolean {
  const allowed = visitor.user.sites;
  return !allowed || (site !== undefined && allowed.includes(site));
}
