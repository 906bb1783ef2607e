import type { Knex } from 'knex';

/** An element screenshot as stored, without its picture. */
export interface ScreenshotRecord {
  id: string;
  scanId: string;
  issueId: number;
  pageIndex: number;
  rule: string;
  selector: string;
  fingerprint: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  createdAt: string;
}

export interface NewScreenshot extends ScreenshotRecord {
  org: string;
  png: Buffer;
}

interface ScreenshotRow {
  id: string;
  scan_id: string;
  issue_id: number | string;
  page_index: number;
  rule: string;
  selector: string;
  fingerprint: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  created_at: string;
}

const COLUMNS = [
  'id',
  'scan_id',
  'issue_id',
  'page_index',
  'rule',
  'selector',
  'fingerprint',
  'width',
  'height',
  'bytes',
  'sha256',
  'created_at',
];

function fromRow(r: ScreenshotRow): ScreenshotRecord {
  return {
    id: r.id,
    scanId: r.scan_id,
    issueId: Number(r.issue_id),
    pageIndex: r.page_index,
    rule: r.rule,
    selector: r.selector,
    fingerprint: r.fingerprint,
    width: r.width,
    height: r.height,
    bytes: r.bytes,
    sha256: r.sha256,
    createdAt: r.created_at,
  };
}

/**
 * The violation of a scan's page (by its submitted URL and viewport) with this rule and element: what a
 * picture shows.
 */
export async function findViolationAt(
  db: Knex,
  scanId: string,
  where: { pageUrl: string; viewport: string | null; rule: string; selector: string },
): Promise<{ id: number; pageIndex: number; fingerprint: string } | undefined> {
  const page = await db('scan_pages')
    .where({ scan_id: scanId, url: where.pageUrl, viewport: where.viewport })
    .orderBy('page_index', 'asc')
    .first<{ page_index: number } | undefined>('page_index');
  if (!page) return undefined;
  const row = await db('scan_issues')
    .where({
      scan_id: scanId,
      page_index: page.page_index,
      rule: where.rule,
      selector: where.selector,
      kind: 'violation',
    })
    .orderBy('id', 'asc')
    .first<{ id: number | string; fingerprint: string } | undefined>('id', 'fingerprint');
  return row ? { id: Number(row.id), pageIndex: page.page_index, fingerprint: row.fingerprint } : undefined;
}

/** How many pictures the scan holds, in all and on one page. */
export async function countScreenshots(
  db: Knex,
  scanId: string,
): Promise<{ total: number; byPage: Map<number, number> }> {
  const rows = await db('scan_screenshots')
    .where({ scan_id: scanId })
    .groupBy('page_index')
    .select<Array<{ page_index: number; n: number | string }>>('page_index', db.raw('count(*) as n'));
  const byPage = new Map(rows.map((r) => [r.page_index, Number(r.n)]));
  return { total: [...byPage.values()].reduce((a, b) => a + b, 0), byPage };
}

export async function findScreenshotOfIssue(
  db: Knex,
  scanId: string,
  issueId: number,
): Promise<ScreenshotRecord | undefined> {
  const row = await db('scan_screenshots')
    .where({ scan_id: scanId, issue_id: issueId })
    .first<ScreenshotRow | undefined>(COLUMNS);
  return row ? fromRow(row) : undefined;
}

export async function insertScreenshot(db: Knex, s: NewScreenshot): Promise<void> {
  await db('scan_screenshots').insert({
    id: s.id,
    org: s.org,
    scan_id: s.scanId,
    issue_id: s.issueId,
    page_index: s.pageIndex,
    rule: s.rule,
    selector: s.selector,
    fingerprint: s.fingerprint,
    width: s.width,
    height: s.height,
    bytes: s.bytes,
    sha256: s.sha256,
    png: s.png,
    created_at: s.createdAt,
  });
}

/** The scan's pictures of these issues (ids), without the pictures themselves. */
export async function screenshotsOfIssues(
  db: Knex,
  scanId: string,
  issueIds: readonly number[],
): Promise<ScreenshotRecord[]> {
  if (issueIds.length === 0) return [];
  const rows = await db('scan_screenshots')
    .where({ scan_id: scanId })
    .whereIn('issue_id', [...issueIds])
    .select<ScreenshotRow[]>(COLUMNS);
  return rows.map(fromRow);
}

/** The scan's pictures of issues with these fingerprints, first stored first. */
export async function screenshotsByFingerprint(
  db: Knex,
  scanId: string,
  fingerprints: readonly string[],
): Promise<ScreenshotRecord[]> {
  if (fingerprints.length === 0) return [];
  const rows = await db('scan_screenshots')
    .where({ scan_id: scanId })
    .whereIn('fingerprint', [...new Set(fingerprints)])
    .orderBy('issue_id', 'asc')
    .select<ScreenshotRow[]>(COLUMNS);
  return rows.map(fromRow);
}

/**
 * One picture, only while its scan is complete (not deleted); `org` when the reader is a key or a session
 * (another org's picture is not there), null when a signed link already proved who may see it.
 */
export async function readScreenshotPng(
  db: Knex,
  id: string,
  owner: { org: string; scanId: string } | null,
): Promise<Buffer | undefined> {
  const q = db('scan_screenshots as s')
    .join('scans', 'scans.id', 's.scan_id')
    .where('s.id', id)
    .andWhere('scans.status', 'complete');
  if (owner)
    q.andWhere('s.org', owner.org).andWhere('s.scan_id', owner.scanId).andWhere('scans.org', owner.org);
  const row = await q.first<{ png: Buffer | Uint8Array } | undefined>('s.png');
  return row ? Buffer.from(row.png) : undefined;
}
