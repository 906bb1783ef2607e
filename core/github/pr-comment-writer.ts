/**
 * The one writer of a site's sticky pull request comment, for the App (its installation's Octokit) and the
 * Action (the workflow token's): the stored comment when the caller knows one, else the comment found by the
 * site's marker, else a new one. The GitHub client is the caller's, behind `CommentsApi`, so both faces share
 * one marker search and one order of writes while each keeps its own token, deadlines and errors.
 */
import { isSiteComment } from './pr-comment.js';

/** A pull request comment as GitHub lists it (the fields the search reads). */
export interface ListedComment {
  id: number;
  body?: string | null;
  user?: { type?: string } | null;
}

/** The three requests the writer makes, on one pull request, through the caller's client. */
export interface CommentsApi {
  /** One page (from 1) of the pull request's comments, 100 a page, oldest first. */
  listPage(page: number): Promise<ListedComment[]>;
  update(commentId: number, body: string): Promise<void>;
  /** Creates the comment and answers its id. */
  create(body: string): Promise<number>;
}

/** At most this many pages of 100 comments are searched for the marker. */
export const MARKER_SEARCH_PAGES = 30;

/**
 * The bot comment of the pull request that is the site's (by its marker, see `isSiteComment`). Only a bot's:
 * anyone may paste the marker into a comment of their own.
 */
export async function findSiteComment(api: CommentsApi, siteId: string): Promise<number | undefined> {
  for (let page = 1; page <= MARKER_SEARCH_PAGES; page++) {
    const comments = await api.listPage(page);
    const found = comments.find((c) => c.user?.type === 'Bot' && isSiteComment(c.body ?? '', siteId));
    if (found) return found.id;
    if (comments.length < 100) return undefined;
  }
  return undefined;
}

export interface SiteCommentWrite {
  siteId: string;
  body: string;
  /** The id the caller stored for this comment (the App's lease), else null. */
  stored: number | null;
  /** Whether an error of `update` says the stored comment is gone (GitHub's 404): then it is searched for. */
  isGone: (err: unknown) => boolean;
}

export interface SiteCommentWritten {
  status: 'created' | 'updated';
  commentId: number;
}

/** Updates the stored comment, else the one carrying the site's marker, else creates it. */
export async function writeSiteComment(api: CommentsApi, w: SiteCommentWrite): Promise<SiteCommentWritten> {
  if (w.stored !== null) {
    try {
      await api.update(w.stored, w.body);
      return { status: 'updated', commentId: w.stored };
    } catch (err) {
      // Someone deleted the comment: write a new one (or the marked one, if there is another).
      if (!w.isGone(err)) throw err;
    }
  }
  const marked = await findSiteComment(api, w.siteId);
  if (marked !== undefined) {
    await api.update(marked, w.body);
    return { status: 'updated', commentId: marked };
  }
  return { status: 'created', commentId: await api.create(w.body) };
}
