import type { Knex } from 'knex';

/** A console session opened by signing in with GitHub: read-only, limited to `siteIds` of `org`. */
export interface GitHubSessionRecord {
  tokenHash: string;
  org: string;
  login: string;
  siteIds: string[];
  /** The user's GitHub token, sealed by the secret box. */
  sealedToken: string;
  createdAt: string;
  recheckAt: string;
  expiresAt: string;
}

interface Row {
  token_hash: string;
  org: string;
  login: string;
  site_ids: string;
  sealed_token: string;
  created_at: string;
  recheck_at: string;
  expires_at: string;
}

const fromRow = (r: Row): GitHubSessionRecord => ({
  tokenHash: r.token_hash,
  org: r.org,
  login: r.login,
  siteIds: JSON.parse(r.site_ids) as string[],
  sealedToken: r.sealed_token,
  createdAt: r.created_at,
  recheckAt: r.recheck_at,
  expiresAt: r.expires_at,
});

export async function insertGitHubSession(db: Knex, s: GitHubSessionRecord): Promise<void> {
  await db('console_github_sessions').insert({
    token_hash: s.tokenHash,
    org: s.org,
    login: s.login,
    site_ids: JSON.stringify(s.siteIds),
    sealed_token: s.sealedToken,
    created_at: s.createdAt,
    recheck_at: s.recheckAt,
    expires_at: s.expiresAt,
  });
}

export async function findGitHubSession(
  db: Knex,
  tokenHash: string,
): Promise<GitHubSessionRecord | undefined> {
  const row = await db<Row>('console_github_sessions').where({ token_hash: tokenHash }).first();
  return row ? fromRow(row) : undefined;
}

/** Records a new answer from GitHub: the sites still granted and when to ask again. */
export async function renewGitHubGrant(
  db: Knex,
  tokenHash: string,
  siteIds: string[],
  recheckAt: string,
): Promise<void> {
  await db('console_github_sessions')
    .where({ token_hash: tokenHash })
    .update({ site_ids: JSON.stringify(siteIds), recheck_at: recheckAt });
}

export async function deleteGitHubSession(db: Knex, tokenHash: string): Promise<void> {
  await db('console_github_sessions').where({ token_hash: tokenHash }).delete();
}

export async function deleteExpiredGitHubSessions(db: Knex, now: string): Promise<number> {
  return db('console_github_sessions').where('expires_at', '<=', now).delete();
}

/**
 * The sites of `org` bound to one of `repositories` (`owner/name`, compared without case, as GitHub
 * compares them).
 */
export async function sitesBoundTo(db: Knex, org: string, repositories: string[]): Promise<string[]> {
  const found: string[] = [];
  // In slices, so a user with thousands of repositories stays under the databases' bound-parameter limits.
  for (let i = 0; i < repositories.length; i += 500) {
    const slice = repositories.slice(i, i + 500).map((r) => r.toLowerCase());
    const rows = await db('sites')
      .where({ org })
      .whereRaw(`lower(repository) in (${slice.map(() => '?').join(', ')})`, slice)
      .select<{ site_id: string }[]>('site_id');
    found.push(...rows.map((r) => r.site_id));
  }
  return [...new Set(found)].sort();
}
