import type { Knex } from 'knex';
import { isNulFree } from '../../../core/text/truncation.js';
import type { PageFacts } from '../../domain/scans/summary.js';
import { normalizeUrl } from '../../../core/url-normalisation.js';
import { viewportPageKey } from '../../../core/matching/fingerprint.js';
import { dialectOf } from '../db.js';
import { scanFromRow, type ScanRecord, type ScanRow } from './scans.js';

/** A scan in either state, as the parts endpoints see it (reads elsewhere see complete scans only). */
export interface ScanState extends ScanRecord {
  status: 'open' | 'complete' | 'deleted';
  expiresAt: string | null;
  htmlTruncated: number;
}

export interface PartRecord {
  requestHash: string;
  firstPage: number;
  pageCount: number;
  issueCount: number;
}

/**
 * The scan, locked against concurrent parts until the transaction ends (PostgreSQL row lock; SQLite
 * has a single writer anyway), so each part gets its own range of page indexes.
 */
export async function lockScan(
  trx: Knex.Transaction,
  org: string,
  id: string,
): Promise<ScanState | undefined> {
  if (!isNulFree(id)) return undefined;
  const q = trx<ScanRow>('scans').where({ org, id });
  if (dialectOf(trx) === 'postgres') q.forUpdate();
  const row = await q.first();
  if (!row) return undefined;
  return {
    ...scanFromRow(row),
    status: row.status ?? 'complete',
    expiresAt: row.expires_at ?? null,
    htmlTruncated: row.html_truncated ?? 0,
  };
}

export async function findPart(
  trx: Knex.Transaction,
  scanId: string,
  key: string,
): Promise<PartRecord | undefined> {
  const row = await trx('scan_parts')
    .where({ scan_id: scanId, part_key: key })
    .first<{ request_hash: string; first_page: number; page_count: number; issue_count: number } | undefined>(
      'request_hash',
      'first_page',
      'page_count',
      'issue_count',
    );
  if (!row) return undefined;
  return {
    requestHash: row.request_hash,
    firstPage: row.first_page,
    pageCount: row.page_count,
    issueCount: row.issue_count,
  };
}

export async function insertPart(
  trx: Knex.Transaction,
  scanId: string,
  key: string,
  part: PartRecord,
  createdAt: string,
): Promise<void> {
  await trx('scan_parts').insert({
    scan_id: scanId,
    part_key: key,
    request_hash: part.requestHash,
    first_page: part.firstPage,
    page_count: part.pageCount,
    issue_count: part.issueCount,
    created_at: createdAt,
  });
}

/** What the warnings need of every page of a scan, read 5,000 pages at a time. */
export async function pageFactsOf(trx: Knex.Transaction, scanId: string): Promise<PageFacts[]> {
  const facts: PageFacts[] = [];
  for (let after = -1; ;) {
    const rows = await trx('scan_pages')
      .where({ scan_id: scanId })
      .andWhere('page_index', '>', after)
      .orderBy('page_index')
      .limit(5000)
      .select<
        Array<{
          page_index: number;
          normalized_url: string;
          final_url: string | null;
          title: string | null;
          http_status: number | null;
        }>
      >('page_index', 'normalized_url', 'final_url', 'title', 'http_status');
    for (const r of rows) {
      facts.push({
        normalizedUrl: r.normalized_url,
        normalizedFinalUrl: r.final_url ? (normalizeUrl(r.final_url, r.normalized_url) ?? null) : null,
        title: r.title,
        httpStatus: r.http_status,
      });
    }
    if (rows.length < 5000) return facts;
    after = rows[rows.length - 1].page_index;
  }
}

/**
 * The addresses of a scan's pages (their normalised URLs, by the current rule, with the viewport when one
 * was named): a part's page at one of them is the same page again, and is left out.
 */
export async function pageAddressesOf(trx: Knex.Transaction, scanId: string): Promise<string[]> {
  const rows = await trx('scan_pages')
    .where({ scan_id: scanId })
    .select<Array<{ normalized_url: string; viewport: string | null }>>('normalized_url', 'viewport');
  return rows.map((r) => viewportPageKey(normalizeUrl(r.normalized_url) ?? r.normalized_url, r.viewport));
}

/** The distinct per-page rule lists of a scan (few: most pages share their engine's list). */
export async function distinctPageRules(trx: Knex.Transaction, scanId: string): Promise<string[][]> {
  const rows = await trx('scan_pages')
    .where({ scan_id: scanId })
    .whereNotNull('rules_run')
    .distinct<Array<{ rules_run: string }>>('rules_run');
  return rows.map((r) => JSON.parse(r.rules_run) as string[]);
}

/** Open scans whose time ran out, oldest first. */
export async function expiredOpenScans(db: Knex, now: string, limit: number): Promise<string[]> {
  const rows = await db('scans')
    .where({ status: 'open' })
    .andWhere('expires_at', '<', now)
    .orderBy('expires_at')
    .limit(limit)
    .select('id');
  return rows.map((r: { id: string }) => r.id);
}
