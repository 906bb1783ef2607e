import type { ApiContext } from '../../context.js';
import { nowIso, randomBase62 } from '../../domain/ids.js';
import {
  releaseCommentLease,
  takeCommentLease,
  type PullRequestCommentKey,
} from '../../store/github/pr-comments.js';
import { sitesOfRepository } from '../../store/sites/sites.js';

export interface CommentLeaseOptions {
  /** How long the writer may take before another may write in its place (it stopped mid-way). */
  leaseMs: number;
  /** How long to wait for another writer of the same comment to finish. */
  waitMs: number;
  /** How often to look again while waiting. */
  pollMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `write` as the only writer of one pull request's comment of one site, across instances: results
 * arriving together take turns, and each sees the comment id the one before stored. `write` gets the
 * stored id (null: none yet) and answers the id to keep (null: forget it; undefined: keep what is stored).
 */
export async function withPullRequestComment<T extends { commentId?: number | null }>(
  ctx: ApiContext,
  key: PullRequestCommentKey,
  options: CommentLeaseOptions,
  write: (commentId: number | null) => Promise<T>,
): Promise<T> {
  const token = randomBase62(24);
  const giveUpAt = Date.now() + options.waitMs;
  for (;;) {
    const now = Date.now();
    const taken = await takeCommentLease(ctx.db, key, {
      token,
      now: nowIso(new Date(now)),
      until: nowIso(new Date(now + options.leaseMs)),
    });
    if (taken) {
      let result: T | undefined;
      try {
        result = await write(taken.commentId);
        return result;
      } finally {
        await releaseCommentLease(ctx.db, key, token, result?.commentId, nowIso());
      }
    }
    if (Date.now() >= giveUpAt) {
      throw new Error('another writer of this pull request comment did not finish in time');
    }
    await sleep(options.pollMs ?? 100);
  }
}

/** What the App needs of the sites bound to a repository for a merge queue's request. */
export async function mergeGroupSites(
  ctx: ApiContext,
  org: string,
  repository: string,
): Promise<Array<{ siteId: string; mergeGroupScans: boolean }>> {
  const sites = await sitesOfRepository(ctx.db, org, repository);
  return sites.map((s) => ({ siteId: s.siteId, mergeGroupScans: s.mergeGroupScans }));
}
