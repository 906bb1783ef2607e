import type { GitHubSignIn } from '../../config.js';
import type { ApiContext } from '../../context.js';
import { hashSecret } from '../../domain/access/api-key.js';
import { randomBase62, nowIso } from '../../domain/ids.js';
import { webhookSecretBox } from '../../secret-box.js';
import {
  deleteExpiredGitHubSessions,
  deleteGitHubSession,
  findGitHubSession,
  insertGitHubSession,
  renewGitHubGrant,
} from '../../store/access/github-sessions.js';
import { gitHubUser, GitHubRefusal, sitesGrantedBy } from '../github/user-access.js';
import { SESSION_TTL_MS, type ConsoleUser } from './console-sessions.js';

/** What a GitHub session may do: read, never change anything (its forms need `manage`). */
const GITHUB_SCOPES: ConsoleUser['scopes'] = ['read', 'gate'];

const later = (ms: number) => nowIso(new Date(Date.now() + ms));

function userOf(s: { tokenHash: string; org: string; login: string; siteIds: string[]; expiresAt: string }) {
  return {
    keyId: `github:${s.login}`,
    org: s.org,
    name: s.login,
    scopes: GITHUB_SCOPES,
    tokenHash: s.tokenHash,
    expiresAt: s.expiresAt,
    sites: s.siteIds,
    githubLogin: s.login,
  } satisfies ConsoleUser;
}

/**
 * Opens a read-only session for the owner of a GitHub user token, limited to the sites GitHub says the
 * user can read. Undefined when no site of any org is granted. With sites in several orgs, the session
 * belongs to the first org by name (a console session has one org).
 */
export async function openGitHubSession(
  ctx: ApiContext,
  signIn: GitHubSignIn,
  gitHubToken: { token: string; expiresInS?: number },
): Promise<{ token: string; user: ConsoleUser } | undefined> {
  const user = await gitHubUser(ctx, signIn, gitHubToken.token);
  const granted = await sitesGrantedBy(ctx, signIn, gitHubToken.token);
  const org = [...granted.keys()].sort()[0];
  if (org === undefined) {
    ctx.logger.info({ github_login: user.login }, 'GitHub sign-in refused: no site granted');
    return undefined;
  }
  const now = nowIso();
  await deleteExpiredGitHubSessions(ctx.db, now);
  const ttl = Math.min(SESSION_TTL_MS, (gitHubToken.expiresInS ?? Infinity) * 1000);
  const token = randomBase62(43);
  const record = {
    tokenHash: hashSecret(token),
    org,
    login: user.login,
    siteIds: granted.get(org)!,
    sealedToken: webhookSecretBox(ctx).seal(gitHubToken.token),
    createdAt: now,
    recheckAt: later(signIn.recheckMs),
    expiresAt: later(ttl),
  };
  await insertGitHubSession(ctx.db, record);
  ctx.logger.info(
    { github_login: user.login, org, sites: record.siteIds.length },
    'console session opened with GitHub',
  );
  return { token, user: userOf(record) };
}

/**
 * The user of a GitHub session, or undefined when there is none or it ended. When its grant is due,
 * GitHub is asked again with the user's token: a revoked token, or no site of the org left, ends the
 * session, and so does a GitHub that cannot be asked (access is not extended on an old answer).
 */
export async function gitHubSessionUser(ctx: ApiContext, token: string): Promise<ConsoleUser | undefined> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return undefined;
  const tokenHash = hashSecret(token);
  const s = await findGitHubSession(ctx.db, tokenHash);
  if (!s) return undefined;
  const signIn = ctx.config.github.signIn;
  const now = nowIso();
  if (s.expiresAt <= now || !signIn) {
    await deleteGitHubSession(ctx.db, tokenHash);
    return undefined;
  }
  if (s.recheckAt > now) return userOf(s);
  let siteIds: string[] = [];
  try {
    const granted = await sitesGrantedBy(ctx, signIn, webhookSecretBox(ctx).open(s.sealedToken));
    siteIds = granted.get(s.org) ?? [];
  } catch (err) {
    const reason = err instanceof GitHubRefusal ? 'GitHub refused the token' : 'GitHub could not be asked';
    ctx.logger.warn({ github_login: s.login, org: s.org, reason }, 'GitHub session ended');
  }
  if (siteIds.length === 0) {
    await deleteGitHubSession(ctx.db, tokenHash);
    return undefined;
  }
  await renewGitHubGrant(ctx.db, tokenHash, siteIds, later(signIn.recheckMs));
  return userOf({ ...s, siteIds });
}

export async function closeGitHubSession(ctx: ApiContext, user: ConsoleUser): Promise<void> {
  await deleteGitHubSession(ctx.db, user.tokenHash);
}
