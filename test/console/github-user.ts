import { createHash } from 'node:crypto';
import nock from 'nock';
import type { components } from '@octokit/openapi-types';
import { webhookExample } from '../fixtures/github/test-app.js';

/*
 * GitHub as "Sign in with GitHub" meets it, faked with nock: the OAuth code exchange on github.com and
 * the user's installations and repositories on api.github.com. Payloads start from real ones
 * (@octokit/webhooks-examples) and are typed by GitHub's OpenAPI description.
 */

export const CLIENT_ID = 'Iv23liA11yGateTest';
export const CLIENT_SECRET = 'test-client-secret';
export const SIGN_IN_ENV = { GITHUB_CLIENT_ID: CLIENT_ID, GITHUB_CLIENT_SECRET: CLIENT_SECRET };

export interface FakeUser {
  login: string;
  token: string;
  /** Installation id → the repositories (`owner/name`) GitHub lists for this user under it. */
  installations: Record<number, string[]>;
}

type Installation = components['schemas']['installation'];
type Repository = components['schemas']['repository'];

function installation(id: number): Installation {
  const i = webhookExample('installation', 'created').installation;
  return { ...i, id } as unknown as Installation;
}

function repository(fullName: string): Repository {
  const r = webhookExample('pull_request', 'opened').repository;
  const [owner, name] = fullName.split('/');
  return { ...r, name, full_name: fullName, owner: { ...r.owner, login: owner } } as unknown as Repository;
}

/** S256 as RFC 7636 defines it, computed here rather than by the code under test. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * GitHub's token endpoint for one code: answers the user's token only when the client's credentials,
 * the code, the redirect address and a PKCE verifier matching `challenge` are sent. What it received is
 * pushed to `seen`.
 */
export function codeExchange(
  o: { code: string; challenge: string; redirectUri: string; token: string },
  seen: Array<Record<string, string>> = [],
): nock.Scope {
  return nock('https://github.com')
    .post('/login/oauth/access_token', (body: Record<string, string>) => {
      seen.push(body);
      return true;
    })
    .matchHeader('accept', 'application/json')
    .reply(200, function (_uri, body) {
      // As GitHub reads it: a form body.
      const b = Object.fromEntries(new URLSearchParams(body as string)) as Record<string, string>;
      const good =
        b.client_id === CLIENT_ID &&
        b.client_secret === CLIENT_SECRET &&
        b.code === o.code &&
        b.redirect_uri === o.redirectUri &&
        s256(b.code_verifier ?? '') === o.challenge;
      return good
        ? {
            access_token: o.token,
            expires_in: 28800,
            refresh_token: 'ghr_notused',
            refresh_token_expires_in: 15811200,
            scope: '',
            token_type: 'bearer',
          }
        : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' };
    });
}

/** What api.github.com answers the user's token: who they are, their installations and repositories. */
export function userApi(user: FakeUser, o: { withUser?: boolean } = {}): nock.Scope {
  const auth = `Bearer ${user.token}`;
  const scope = nock('https://api.github.com').matchHeader('authorization', auth);
  if (o.withUser !== false) {
    const u = webhookExample('pull_request', 'opened').sender;
    scope.get('/user').reply(200, { ...u, login: user.login });
  }
  const ids = Object.keys(user.installations).map(Number);
  scope
    .get('/user/installations')
    .query({ per_page: '100', page: '1' })
    .reply(200, { total_count: ids.length, installations: ids.map(installation) });
  for (const id of ids) {
    const repos = user.installations[id];
    scope
      .get(`/user/installations/${id}/repositories`)
      .query({ per_page: '100', page: '1' })
      .reply(200, {
        total_count: repos.length,
        repository_selection: 'selected',
        repositories: repos.map(repository),
      });
  }
  return scope;
}

/** The authorize address the console sent the browser to, read as GitHub reads it. */
export function readAuthorize(location: string) {
  const u = new URL(location);
  return {
    origin: u.origin,
    path: u.pathname,
    clientId: u.searchParams.get('client_id'),
    redirectUri: u.searchParams.get('redirect_uri')!,
    state: u.searchParams.get('state')!,
    challenge: u.searchParams.get('code_challenge')!,
    method: u.searchParams.get('code_challenge_method'),
  };
}
