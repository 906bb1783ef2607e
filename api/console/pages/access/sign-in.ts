import { randomBytes } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import type { ApiContext } from '../../../context.js';
import { closeSession, countFailedSignIn, openSession } from '../../../services/access/console-sessions.js';
import { closeGitHubSession } from '../../../services/access/github-sessions.js';
import { action, field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { redirectAfterPost, sendPage } from '../../respond.js';
import {
  cookieOptions,
  csrfMatches,
  readCookie,
  safeNext,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  visitorOf,
} from '../../session.js';
import { csrfField, errorSummary } from '../../views/parts.js';

const readForm = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });

export interface SignInPageOptions {
  csrf: string;
  next: string;
  error?: string;
  notice?: string;
  /** Offer "Sign in with GitHub" (the App's OAuth credentials are configured). */
  github: boolean;
  /** Why signing in with GitHub did not work. */
  githubError?: string;
}

function gitHubSection(o: SignInPageOptions): Html | null {
  if (!o.github) return null;
  return markup`<section aria-labelledby="with-github" class="stack">
    <h2 id="with-github">With GitHub</h2>
    <p>
      See the results of the sites whose repositories you can read on GitHub. You can look, but not change
      anything.
    </p>
    <p><a class="button" id="github" href=${`/sign-in/github?next=${encodeURIComponent(o.next)}`}>Sign in with GitHub</a></p>
  </section>`;
}

export function signInPage(res: Response, status: number, o: SignInPageOptions) {
  const problems = o.githubError
    ? [{ field: 'github', message: o.githubError }]
    : o.error
      ? [{ field: 'key', message: o.error }]
      : [];
  sendPage(
    res,
    status,
    layout({
      title: 'Sign in',
      main: markup`${errorSummary(problems)}
        ${o.notice ? markup`<p class="notice" role="status">${o.notice}</p>` : null}
        ${gitHubSection(o)}
        <section aria-labelledby="with-key" class="stack">
        ${o.github ? markup`<h2 id="with-key">With an API key</h2>` : null}
        <p>Sign in with an API key of your organisation. What you can see and do follows the key’s scopes.</p>
        <form method="post" action="/sign-in" class="stack">
          ${csrfField(o.csrf)}
          <input type="hidden" name="next" value=${o.next} />
          <div class="field">
            <label for="key">API key</label>
            <span class="hint" id="key-hint"
              >Starts with a11y_. It is sent only in this form, never in an address.</span
            >
            ${o.error ? markup`<span class="field-error" id="key-error">Error: ${o.error}</span>` : null}
            <input
              id="key"
              name="key"
              type="password"
              autocomplete="off"
              spellcheck="false"
              required
              aria-describedby=${o.error ? 'key-hint key-error' : 'key-hint'}
              aria-invalid=${o.error ? 'true' : undefined}
            />
          </div>
          <div><button type="submit">Sign in</button></div>
        </form>
        </section>`,
    }),
  );
}

export function newSignInToken(req: Request, res: Response): string {
  const token = randomBytes(24).toString('base64url');
  res.cookie(SIGN_IN_COOKIE, token, cookieOptions(req, 60 * 60 * 1000));
  return token;
}

export const offersGitHub = (ctx: ApiContext) => ctx.config.github.signIn !== undefined;

async function showSignIn(ctx: ApiContext, req: Request, res: Response): Promise<void> {
  const next = safeNext(req.query.next);
  if (await visitorOf(ctx, req)) return res.redirect(303, next);
  const notice = req.query.signed_out === '1' ? 'You are signed out.' : undefined;
  signInPage(res, 200, { csrf: newSignInToken(req, res), next, notice, github: offersGitHub(ctx) });
}

async function submitSignIn(ctx: ApiContext, req: Request, res: Response): Promise<void> {
  const next = safeNext(field(req, 'next'));
  const expected = readCookie(req, SIGN_IN_COOKIE);
  if (!expected || !csrfMatches(expected, field(req, '_csrf'))) {
    return signInPage(res, 403, {
      csrf: newSignInToken(req, res),
      next,
      github: offersGitHub(ctx),
      error: 'The form had expired. Enter the key again.',
    });
  }
  const key = field(req, 'key');
  const opened = await openSession(ctx, key);
  if (!opened) {
    if (await countFailedSignIn(ctx, req.ip ?? 'unknown', key)) {
      return signInPage(res, 429, {
        csrf: expected,
        next,
        github: offersGitHub(ctx),
        error: 'Too many failed attempts. Wait a minute and try again.',
      });
    }
    return signInPage(res, 401, {
      csrf: expected,
      next,
      github: offersGitHub(ctx),
      error: 'This API key is unknown, revoked or expired.',
    });
  }
  res.clearCookie(SIGN_IN_COOKIE, cookieOptions(req));
  res.cookie(
    SESSION_COOKIE,
    opened.token,
    cookieOptions(req, Date.parse(opened.user.expiresAt) - Date.now()),
  );
  redirectAfterPost(res, next);
}

export function signInRoutes(router: Router, ctx: ApiContext): void {
  router.get('/sign-in', (req, res, next) => void showSignIn(ctx, req, res).catch(next));
  router.post('/sign-in', readForm, (req, res, next) => void submitSignIn(ctx, req, res).catch(next));
  router.get(
    '/sign-out',
    (req, res, next) =>
      void (async () => {
        const visitor = await visitorOf(ctx, req);
        if (!visitor) return res.redirect(303, '/sign-in');
        sendPage(
          res,
          200,
          layout({
            title: 'Sign out',
            visitor,
            main: markup`<form method="post" action="/sign-out">
              ${csrfField(visitor.csrf)}<button type="submit">Sign out now</button>
            </form>`,
          }),
        );
      })().catch(next),
  );
  router.post(
    '/sign-out',
    ...action(
      ctx,
      [],
      async (visitor, req, res) => {
        await (visitor.user.sites ? closeGitHubSession(ctx, visitor.user) : closeSession(ctx, visitor.user));
        res.clearCookie(SESSION_COOKIE, cookieOptions(req));
        redirectAfterPost(res, '/sign-in?signed_out=1');
      },
      'own',
    ),
  );
}
