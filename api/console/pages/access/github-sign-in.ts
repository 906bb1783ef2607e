import { randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import type { GitHubSignIn } from '../../../config.js';
import type { ApiContext } from '../../../context.js';
import { openGitHubSession } from '../../../services/access/github-sessions.js';
import {
  authorizeUrl,
  exchangeCode,
  GitHubRefusal,
  GitHubUnavailable,
} from '../../../services/github/user-access.js';
import { sendNotFound } from '../../errors.js';
import { cookieOptions, csrfMatches, readCookie, safeNext, SESSION_COOKIE } from '../../session.js';
import { newSignInToken, signInPage } from './sign-in.js';

/**
 * Binds a GitHub sign-in to the browser that started it: the OAuth state, the PKCE verifier and where
 * to go afterwards, for the few minutes a sign-in takes. HttpOnly, so no script reads the verifier.
 */
export const GITHUB_SIGN_IN_COOKIE = 'a11y_github_sign_in';
const FLOW_TTL_MS = 10 * 60 * 1000;
const CALLBACK = '/sign-in/github/callback';

/** The address GitHub sends the browser back to: under PUBLIC_URL, else the address it was reached at. */
function redirectUri(ctx: ApiContext, req: Request): string {
  return `${ctx.config.publicUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`}${CALLBACK}`;
}

function start(ctx: ApiContext, signIn: GitHubSignIn, req: Request, res: Response): void {
  const state = randomBytes(24).toString('base64url');
  const verifier = randomBytes(48).toString('base64url');
  const next = Buffer.from(safeNext(req.query.next)).toString('base64url');
  res.cookie(GITHUB_SIGN_IN_COOKIE, `${state}.${verifier}.${next}`, cookieOptions(req, FLOW_TTL_MS));
  res.redirect(303, authorizeUrl(signIn, { redirectUri: redirectUri(ctx, req), state, verifier }));
}

function refuse(req: Request, res: Response, status: number, next: string, why: string) {
  signInPage(res, status, { csrf: newSignInToken(req, res), next, github: true, githubError: why });
}

async function finish(ctx: ApiContext, signIn: GitHubSignIn, req: Request, res: Response): Promise<void> {
  const [state, verifier, nextB64] = (readCookie(req, GITHUB_SIGN_IN_COOKIE) ?? '').split('.');
  res.clearCookie(GITHUB_SIGN_IN_COOKIE, cookieOptions(req));
  const next = safeNext(nextB64 ? Buffer.from(nextB64, 'base64url').toString('utf8') : '/');
  const code = typeof req.query.code === 'string' ? req.query.code : '';
  // A state that is not the one this browser was given is someone else's sign-in: refused, never exchanged.
  if (!state || !verifier || !csrfMatches(state, req.query.state)) {
    return refuse(
      req,
      res,
      403,
      next,
      'The GitHub sign-in could not be matched to this browser. Start again.',
    );
  }
  if (!code || code.length > 200) {
    return refuse(req, res, 401, next, 'GitHub did not authorise the sign-in.');
  }
  try {
    const token = await exchangeCode(ctx, signIn, { code, verifier, redirectUri: redirectUri(ctx, req) });
    const opened = await openGitHubSession(ctx, signIn, token);
    if (!opened) {
      return refuse(req, res, 403, next, 'Your GitHub account cannot read the repository of any site here.');
    }
    res.cookie(
      SESSION_COOKIE,
      opened.token,
      cookieOptions(req, Date.parse(opened.user.expiresAt) - Date.now()),
    );
    res.redirect(303, next);
  } catch (err) {
    if (err instanceof GitHubRefusal) {
      return refuse(req, res, 401, next, 'GitHub refused the sign-in (it may have expired). Start again.');
    }
    if (err instanceof GitHubUnavailable) {
      ctx.logger.warn({ reason: err.message }, 'GitHub sign-in failed');
      return refuse(req, res, 502, next, 'GitHub could not be reached. Try again in a minute.');
    }
    throw err;
  }
}

/** "Sign in with GitHub": answered only when the App's OAuth credentials are configured (404 otherwise). */
export function gitHubSignInRoutes(router: Router, ctx: ApiContext): void {
  router.get('/sign-in/github', (req, res) => {
    const signIn = ctx.config.github.signIn;
    if (!signIn) return sendNotFound(res, undefined);
    start(ctx, signIn, req, res);
  });
  router.get(CALLBACK, (req, res, next) => {
    const signIn = ctx.config.github.signIn;
    if (!signIn) return sendNotFound(res, undefined);
    finish(ctx, signIn, req, res).catch(next);
  });
}
