import { claimedPublicId, hashSecret, keyIsUsable, type Scope } from '../../domain/access/api-key.js';
import { randomBase62, nowIso } from '../../domain/ids.js';
import type { ApiContext } from '../../context.js';
import { recordKeyUse, verifyKey } from './key-auth.js';
import { countAuthFailure } from './auth-failures.js';
import {
  deleteExpiredSessions,
  deleteSession,
  deleteSessionsOfKey,
  findSessionWithKey,
  endOldestSessions,
  insertSession,
} from '../../store/access/console-sessions.js';

/** A signed-in console user: what its key may do and in which org. */
export interface ConsoleUser {
  keyId: string;
  org: string;
  name: string;
  scopes: Scope[];
  /** Identifies the session without its token (CSRF tokens are derived from the token itself). */
  tokenHash: string;
  expiresAt: string;
  /**
   * The only sites this user may see (a session opened with GitHub); absent for a key's session, which
   * sees every site of its org.
   */
  sites?: string[];
  /** The person's GitHub login (a session opened with GitHub): the name they sign with, never typed. */
  githubLogin?: string;
}

/** How long a console session lives at most; never longer than its key. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Opens a session for a presented API key: the same checks as a Bearer request (checksum, constant-time
 * hash comparison, revoked, expired). Returns the cookie token (shown once, stored only as a hash), or
 * undefined for any kind of refusal, so a wrong guess learns nothing about which keys exist.
 */
export async function openSession(
  ctx: ApiContext,
  presented: string,
): Promise<{ token: string; user: ConsoleUser } | undefined> {
  const now = nowIso();
  const record = await verifyKey(ctx, presented, now);
  if (!record) return undefined;
  recordKeyUse(ctx, record, now);
  await deleteExpiredSessions(ctx.db, now);
  const token = randomBase62(43);
  const ttlEnd = nowIso(new Date(Date.parse(now) + SESSION_TTL_MS));
  const expiresAt = record.expiresAt && record.expiresAt < ttlEnd ? record.expiresAt : ttlEnd;
  const tokenHash = hashSecret(token);
  const ended = await ctx.db.transaction(async (trx) => {
    await insertSession(trx, { tokenHash, keyId: record.id, org: record.org, createdAt: now, expiresAt });
    return endOldestSessions(trx, record.id, ctx.config.limits.sessionsPerKey);
  });
  ctx.logger.info({ key_id: record.id, org: record.org, ended_sessions: ended }, 'console session opened');
  return {
    token,
    user: {
      keyId: record.id,
      org: record.org,
      name: record.name,
      scopes: record.scopes,
      tokenHash,
      expiresAt,
    },
  };
}

/**
 * The user behind a cookie token, or undefined when the session is unknown, expired, or its key was
 * revoked or expired since; the sessions of such a key are deleted, so they are gone for good.
 */
export async function sessionUser(ctx: ApiContext, token: string): Promise<ConsoleUser | undefined> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return undefined;
  const tokenHash = hashSecret(token);
  const s = await findSessionWithKey(ctx.db, tokenHash);
  if (!s) return undefined;
  const now = nowIso();
  if (!keyIsUsable({ revokedAt: s.keyRevokedAt, expiresAt: s.keyExpiresAt }, now)) {
    await deleteSessionsOfKey(ctx.db, s.keyId);
    return undefined;
  }
  if (s.expiresAt <= now) {
    await deleteSession(ctx.db, tokenHash);
    return undefined;
  }
  return { keyId: s.keyId, org: s.org, name: s.keyName, scopes: s.scopes, tokenHash, expiresAt: s.expiresAt };
}

export async function closeSession(ctx: ApiContext, user: ConsoleUser): Promise<void> {
  await deleteSession(ctx.db, user.tokenHash);
  ctx.logger.info({ key_id: user.keyId, org: user.org }, 'console session closed');
}

/**
 * A failed sign-in counts like a failed API authentication, in the same windows (the form is no way
 * around AUTH_FAILURES_PER_MINUTE); true when the caller is now over the limit. Counted only after the
 * key was found invalid, so a valid key always signs in.
 */
export async function countFailedSignIn(ctx: ApiContext, ip: string, presentedKey: string): Promise<boolean> {
  const max = ctx.config.limits.authFailuresPerMinute;
  return (await countAuthFailure(ctx.rateLimits, max, ip, claimedPublicId(presentedKey))) !== undefined;
}
