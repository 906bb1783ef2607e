import { createHash } from 'node:crypto';
import type { ZodType } from 'zod';
import type { GitHubSignIn } from '../../config.js';
import type { ApiContext } from '../../context.js';
import {
  GitHubTokenAnswer,
  GitHubUser,
  GitHubUserInstallations,
  GitHubUserRepositories,
} from '../../schemas/github/user-access.js';
import { sitesBoundTo } from '../../store/access/github-sessions.js';
import { orgOfInstallation } from './installations.js';

/** GitHub refused the user's token or code (revoked, expired, already used): the user must sign in again. */
export class GitHubRefusal extends Error {
  override name = 'GitHubRefusal';
}

/** GitHub could not be asked (network, timeout, 5xx, an answer of the wrong shape). */
export class GitHubUnavailable extends Error {
  override name = 'GitHubUnavailable';
}

/** Pages of 100 read at most per list: 1,000 installations, and 1,000 repositories per installation. */
const MAX_PAGES = 10;

/** The PKCE challenge of a verifier (S256): base64url of its SHA-256. */
export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Where the browser goes to authorise the App for its user. */
export function authorizeUrl(
  signIn: GitHubSignIn,
  o: { redirectUri: string; state: string; verifier: string },
): string {
  const q = new URLSearchParams({
    client_id: signIn.clientId,
    redirect_uri: o.redirectUri,
    state: o.state,
    code_challenge: pkceChallenge(o.verifier),
    code_challenge_method: 'S256',
  });
  return `${signIn.webUrl}/login/oauth/authorize?${q.toString()}`;
}

async function call<T>(ctx: ApiContext, url: string, schema: ZodType<T>, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(ctx.config.github.timeoutMs) });
  } catch (err) {
    throw new GitHubUnavailable(`GitHub did not answer: ${(err as Error).name}`);
  }
  if (res.status === 401 || res.status === 403 || res.status === 404) {
    throw new GitHubRefusal(`GitHub answered ${res.status}`);
  }
  if (!res.ok) throw new GitHubUnavailable(`GitHub answered ${res.status}`);
  const parsed = schema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) throw new GitHubUnavailable('GitHub answered in an unexpected shape');
  return parsed.data;
}

/** Trades the authorisation code (and the PKCE verifier) for the user's token. */
export async function exchangeCode(
  ctx: ApiContext,
  signIn: GitHubSignIn,
  o: { code: string; verifier: string; redirectUri: string },
): Promise<{ token: string; expiresInS?: number }> {
  const answer = await call(ctx, `${signIn.webUrl}/login/oauth/access_token`, GitHubTokenAnswer, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: signIn.clientId,
      client_secret: signIn.clientSecret,
      code: o.code,
      redirect_uri: o.redirectUri,
      code_verifier: o.verifier,
    }).toString(),
  });
  if ('error' in answer) throw new GitHubRefusal(`GitHub refused the code: ${answer.error}`);
  return { token: answer.access_token, expiresInS: answer.expires_in };
}

function asUser<T>(ctx: ApiContext, signIn: GitHubSignIn, token: string, path: string, schema: ZodType<T>) {
  return call(ctx, `${signIn.apiUrl}${path}`, schema, {
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${token}`,
      'x-github-api-version': '2022-11-28',
      'user-agent': 'a11y-gate',
    },
  });
}

export function gitHubUser(ctx: ApiContext, signIn: GitHubSignIn, token: string): Promise<GitHubUser> {
  return asUser(ctx, signIn, token, '/user', GitHubUser);
}

async function everyPage<T>(read: (page: number) => Promise<{ items: T[]; total: number }>): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, total } = await read(page);
    all.push(...items);
    if (items.length < 100 || all.length >= total) break;
  }
  return all;
}

/**
 * The sites each org lets this user see: those bound to a repository that GitHub lists for the user's
 * token under an installation of the App linked to the org.
 */
export async function sitesGrantedBy(
  ctx: ApiContext,
  signIn: GitHubSignIn,
  token: string,
): Promise<Map<string, string[]>> {
  const installations = await everyPage(async (page) => {
    const a = await asUser(
      ctx,
      signIn,
      token,
      `/user/installations?per_page=100&page=${page}`,
      GitHubUserInstallations,
    );
    return { items: a.installations, total: a.total_count };
  });
  const granted = new Map<string, string[]>();
  for (const { id } of installations) {
    const org = await orgOfInstallation(ctx, id);
    if (!org) continue;
    const repositories = await everyPage(async (page) => {
      const path = `/user/installations/${id}/repositories?per_page=100&page=${page}`;
      const a = await asUser(ctx, signIn, token, path, GitHubUserRepositories);
      return { items: a.repositories.map((r) => r.full_name), total: a.total_count };
    });
    const sites = await sitesBoundTo(ctx.db, org, repositories);
    if (sites.length > 0) granted.set(org, [...new Set([...(granted.get(org) ?? []), ...sites])].sort());
  }
  return granted;
}
