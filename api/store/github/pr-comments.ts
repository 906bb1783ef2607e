import type { Knex } from 'knex';

/**
 * The pull request comment of one site: its GitHub id and a lease. Whoever holds the lease is the only
 * writer of that comment until it releases it or the lease runs out (a process that stopped mid-way), on
 * one instance or several, on SQLite and PostgreSQL alike, without holding a connection while GitHub answers.
 */
export interface PullRequestCommentKey {
  org: string;
  /** `owner/name`; stored in lower case. */
  repository: string;
  pullNumber: number;
  siteId: string;
}

interface Row {
  org: string;
  repository: string;
  pull_number: number;
  site_id: string;
  comment_id: number | string | null;
  lease_token: string | null;
  lease_until: string | null;
  updated_at: string;
}

function where(key: PullRequestCommentKey) {
  return {
    org: key.org,
    repository: key.repository.toLowerCase(),
    pull_number: key.pullNumber,
    site_id: key.siteId,
  };
}

/**
 * Takes the lease when it is free or ran out (`now` is past `lease_until`); answers the stored comment
 * id (null: none yet), or undefined when someone else holds the lease.
 */
export async function takeCommentLease(
  db: Knex,
  key: PullRequestCommentKey,
  lease: { token: string; until: string; now: string },
): Promise<{ commentId: number | null } | undefined> {
  await db('github_pr_comments')
    .insert({ ...where(key), comment_id: null, lease_token: null, lease_until: null, updated_at: lease.now })
    .onConflict(['org', 'repository', 'pull_number', 'site_id'])
    .ignore();
  const taken = await db<Row>('github_pr_comments')
    .where(where(key))
    .andWhere((q) => {
      q.whereNull('lease_until').orWhere('lease_until', '<', lease.now);
    })
    .update({ lease_token: lease.token, lease_until: lease.until, updated_at: lease.now });
  if (taken !== 1) return undefined;
  const row = await db<Row>('github_pr_comments').where(where(key)).first('comment_id');
  return { commentId: row?.comment_id == null ? null : Number(row.comment_id) };
}

/** Gives the lease back, recording the comment's id when one was written (only by the lease's holder). */
export async function releaseCommentLease(
  db: Knex,
  key: PullRequestCommentKey,
  token: string,
  commentId: number | null | undefined,
  now: string,
): Promise<boolean> {
  const update: Partial<Row> = { lease_token: null, lease_until: null, updated_at: now };
  if (commentId !== undefined) update.comment_id = commentId;
  const n = await db<Row>('github_pr_comments')
    .where({ ...where(key), lease_token: token })
    .update(update);
  return n === 1;
}
