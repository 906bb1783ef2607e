import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ApiContext } from '../../context.js';
import { domainErrors, type FieldError } from '../../domain/errors.js';
import { newId, nowIso } from '../../domain/ids.js';
import { SCREENSHOTS_PER_PAGE, SCREENSHOTS_PER_SCAN } from '../../../core/scans/pictures.js';
import { checkPicture } from './picture-check.js';
import { lockScan } from '../../store/scans/parts.js';
import {
  countScreenshots,
  findScreenshotOfIssue,
  findViolationAt,
  insertScreenshot,
  type ScreenshotRecord,
} from '../../store/scans/screenshots.js';

/** One picture as sent: the violation it shows (page URL and viewport as submitted, rule, selector) and the PNG. */
export interface PictureUpload {
  pageUrl: string;
  /** Null: the page without a viewport. */
  viewport: string | null;
  rule: string;
  selector: string;
  png: Buffer;
}

export interface KeptPicture extends ScreenshotRecord {
  /** False when the same picture of the issue was already stored (a retry). */
  created: boolean;
}

async function checked(
  uploads: PictureUpload[],
): Promise<Array<PictureUpload & { width: number; height: number }>> {
  const errors: FieldError[] = [];
  const out = [];
  // One at a time: each inflates up to its declared size, and twenty at once would hold twenty of them.
  for (const [i, u] of uploads.entries()) {
    const png = await checkPicture(u.png);
    if (png.ok) out.push({ ...u, width: png.width, height: png.height });
    else errors.push({ pointer: `#/images/${i}/png`, detail: `The picture ${png.problem}.` });
  }
  if (errors.length > 0) throw domainErrors.invalid(errors);
  return out;
}

async function storeOne(
  trx: Knex.Transaction,
  org: string,
  scanId: string,
  u: PictureUpload & { width: number; height: number },
  i: number,
): Promise<KeptPicture> {
  const issue = await findViolationAt(trx, scanId, u);
  if (!issue) {
    throw domainErrors.invalid(
      [
        {
          pointer: `#/images/${i}`,
          detail: 'The scan has no violation on this page with this rule and selector.',
        },
      ],
      'A picture names no violation of the scan.',
    );
  }
  const sha256 = createHash('sha256').update(u.png).digest('hex');
  const existing = await findScreenshotOfIssue(trx, scanId, issue.id);
  if (existing) {
    if (existing.sha256 !== sha256) {
      throw domainErrors.conflict(
        `The violation at #/images/${i} already has another picture (${existing.id}).`,
      );
    }
    return { ...existing, created: false };
  }
  const record: ScreenshotRecord = {
    id: newId('img'),
    scanId,
    issueId: issue.id,
    pageIndex: issue.pageIndex,
    rule: u.rule,
    selector: u.selector,
    fingerprint: issue.fingerprint,
    width: u.width,
    height: u.height,
    bytes: u.png.length,
    sha256,
    createdAt: nowIso(),
  };
  await insertScreenshot(trx, { ...record, org, png: u.png });
  return { ...record, created: true };
}

function checkLimits(stored: KeptPicture[], counts: Awaited<ReturnType<typeof countScreenshots>>): void {
  const fresh = stored.filter((s) => s.created);
  const total = counts.total + fresh.length;
  if (total > SCREENSHOTS_PER_SCAN) {
    throw domainErrors.tooLarge(
      [{ pointer: '#/images', detail: `A scan keeps at most ${SCREENSHOTS_PER_SCAN} pictures.` }],
      `The scan would hold ${total} pictures, over its limit of ${SCREENSHOTS_PER_SCAN}.`,
    );
  }
  const byPage = new Map(counts.byPage);
  for (const s of fresh) byPage.set(s.pageIndex, (byPage.get(s.pageIndex) ?? 0) + 1);
  const over = [...byPage].find(([, n]) => n > SCREENSHOTS_PER_PAGE);
  if (over) {
    throw domainErrors.tooLarge(
      [{ pointer: '#/images', detail: `A page keeps at most ${SCREENSHOTS_PER_PAGE} pictures.` }],
      `Page ${over[0] + 1} of the scan would hold ${over[1]} pictures, over its limit of ${SCREENSHOTS_PER_PAGE}.`,
    );
  }
}

/**
 * Stores pictures of a scan's violations, all or none: every PNG is checked before anything is written,
 * and a picture that names no violation, or one that would pass the limits, refuses the whole request.
 * The same picture of an issue sent again stores nothing new; a different one is a conflict. An open scan
 * (sent in parts or shards) takes pictures of the pages it holds so far, so that a shard's pictures are in
 * before its last part reports it; nobody reads them until the scan completes.
 */
export async function addScreenshots(
  ctx: ApiContext,
  org: string,
  scanId: string,
  uploads: PictureUpload[],
): Promise<KeptPicture[]> {
  const pictures = await checked(uploads);
  return ctx.db.transaction(async (trx) => {
    // The scan's row locked (PostgreSQL): two uploads of one scan, or an upload and a shard's part that
    // replaces pages, take turns, so the counts and the one-picture-per-issue check hold, and retention
    // cannot remove the scan in between.
    const scan = await lockScan(trx, org, scanId);
    if (!scan || !takesPictures(scan)) throw domainErrors.notFound('scan');
    const counts = await countScreenshots(trx, scanId);
    const stored: KeptPicture[] = [];
    for (const [i, u] of pictures.entries()) stored.push(await storeOne(trx, org, scanId, u, i));
    checkLimits(stored, counts);
    return stored;
  });
}

/** A complete scan, or an open one still inside its time to complete (past it, it is as good as gone). */
function takesPictures(scan: { status: string; expiresAt: string | null }): boolean {
  if (scan.status === 'complete') return true;
  return scan.status === 'open' && (scan.expiresAt === null || scan.expiresAt >= nowIso());
}
