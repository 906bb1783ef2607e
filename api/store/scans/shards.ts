import type { Knex } from 'knex';
import type { ScanSummary } from '../../domain/scans/summary.js';
import { dialectOf } from '../db.js';
import { DELETE_BATCH } from './deletion.js';

/**
 * The shards of a scan that parallel CI jobs send: which group key names it, how many shards complete it,
 * what each shard added (so a shard sent again can take its pages and their totals back out) and which
 * shards have reported.
 */

export interface ShardRecord {
  shard: number;
  parts: number;
  partsReceived: number;
  pageCount: number;
  issueCount: number;
  htmlTruncated: number;
  summary: ScanSummary;
  reportedAt: string | null;
}

interface ShardRow {
  shard: number;
  parts: number;
  parts_received: number;
  page_count: number;
  issue_count: number;
  html_truncated: number;
  summary: string;
  reported_at: string | null;
}

/** How the scan's group and shard count are stored. */
export interface ScanSharding {
  group: string | null;
  shards: number | null;
}

export async function scanSharding(db: Knex, id: string): Promise<ScanSharding> {
  const row = await db('scans')
    .where({ id })
    .first<{ scan_group: string | null; shards: number | null } | undefined>('scan_group', 'shards');
  return { group: row?.scan_group ?? null, shards: row?.shards ?? null };
}

export async function setScanSharding(trx: Knex.Transaction, id: string, s: ScanSharding): Promise<void> {
  await trx('scans').where({ id }).update({ scan_group: s.group, shards: s.shards });
}

/** The scan a group key names on a site, in whatever state; locked for the transaction (PostgreSQL). */
export async function scanIdOfGroup(
  trx: Knex.Transaction,
  org: string,
  siteId: string,
  group: string,
): Promise<string | undefined> {
  const q = trx('scans').where({ org, site_id: siteId, scan_group: group });
  if (dialectOf(trx) === 'postgres') q.forUpdate();
  const row = await q.first<{ id: string } | undefined>('id');
  return row?.id;
}

/** Frees a group key held by a scan that can no longer take it (an open scan past its time). */
export async function releaseGroup(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('scans').where({ id }).update({ scan_group: null });
}

export async function shardsOf(db: Knex, scanId: string): Promise<ShardRecord[]> {
  const rows = await db('scan_shards')
    .where({ scan_id: scanId })
    .orderBy('shard')
    .select<ShardRow[]>(
      'shard',
      'parts',
      'parts_received',
      'page_count',
      'issue_count',
      'html_truncated',
      'summary',
      'reported_at',
    );
  return rows.map((r) => ({
    shard: r.shard,
    parts: r.parts,
    partsReceived: r.parts_received,
    pageCount: r.page_count,
    issueCount: r.issue_count,
    htmlTruncated: r.html_truncated,
    summary: JSON.parse(r.summary) as ScanSummary,
    reportedAt: r.reported_at,
  }));
}

export async function writeShard(
  trx: Knex.Transaction,
  scanId: string,
  s: ShardRecord,
  now: string,
): Promise<void> {
  const row = {
    scan_id: scanId,
    shard: s.shard,
    parts: s.parts,
    parts_received: s.partsReceived,
    page_count: s.pageCount,
    issue_count: s.issueCount,
    html_truncated: s.htmlTruncated,
    summary: JSON.stringify(s.summary),
    reported_at: s.reportedAt,
    updated_at: now,
  };
  await trx('scan_shards').insert(row).onConflict(['scan_id', 'shard']).merge();
}

/** Labels the pages from `firstPage` on (the part just stored) with their shard. */
export async function labelShardPages(
  trx: Knex.Transaction,
  scanId: string,
  firstPage: number,
  shard: number,
): Promise<void> {
  await trx('scan_pages')
    .where({ scan_id: scanId })
    .andWhere('page_index', '>=', firstPage)
    .update({ shard });
}

/** The index the next page of the scan gets: after every page stored, also when some were taken out. */
export async function nextPageIndex(trx: Knex.Transaction, scanId: string): Promise<number> {
  const rows = await trx('scan_pages')
    .where({ scan_id: scanId })
    .select<Array<{ last: number | string | null }>>(trx.raw('max(page_index) as last'));
  const last = rows[0]?.last ?? null;
  return last === null ? 0 : Number(last) + 1;
}

/**
 * Removes a shard's pages, their issues and the pictures of those issues (a shard sent again replaces what
 * it sent before, and its run sends its pictures again).
 */
export async function deleteShardRows(trx: Knex.Transaction, scanId: string, shard: number): Promise<void> {
  const pages = trx('scan_pages').where({ scan_id: scanId, shard }).select('page_index');
  await trx('scan_screenshots').where({ scan_id: scanId }).whereIn('page_index', pages).delete();
  for (;;) {
    const n = await trx('scan_issues')
      .whereIn(
        'id',
        trx('scan_issues')
          .where({ scan_id: scanId })
          .whereIn('page_index', pages)
          .limit(DELETE_BATCH)
          .select('id'),
      )
      .delete();
    if (n < DELETE_BATCH) break;
  }
  await trx('scan_pages').where({ scan_id: scanId, shard }).delete();
}

/** The latest open scan of a commit that names shards or a group: what the gate explains it waits for. */
export async function openShardedScanForSha(
  db: Knex,
  org: string,
  siteId: string,
  sha: string,
): Promise<{ id: string; group: string | null; shards: number | null } | undefined> {
  const row = await db('scans')
    .where({ org, site_id: siteId, sha, status: 'open' })
    .andWhere((w) => {
      w.whereNotNull('scan_group').orWhereNotNull('shards');
    })
    .orderBy('created_at', 'desc')
    .first<{ id: string; scan_group: string | null; shards: number | null } | undefined>(
      'id',
      'scan_group',
      'shards',
    );
  return row ? { id: row.id, group: row.scan_group, shards: row.shards } : undefined;
}
