import type { Knex } from 'knex';
import type { Impact } from '../../../core/impact.js';
import { viewportPageKey } from '../../../core/matching/fingerprint.js';
import { pageKey } from '../../../core/url-normalisation.js';
import type { HistoryScan, ObservedIssue } from '../../domain/history/spans.js';
import type { SiteRef } from './spans.js';

/** The time a scan stands at in history: when it was scanned, else when it was stored. */
export const SCAN_TIME_SQL = 'coalesce(scanned_at, created_at)';

function historyScans(trx: Knex.Transaction, s: SiteRef, branch: string, at: string) {
  return trx('scans')
    .where({ org: s.org, site_id: s.siteId, branch, status: 'complete' })
    .andWhere((w) => {
      w.where('scope', 'full').orWhereNull('scope');
    })
    .andWhereRaw(`${SCAN_TIME_SQL} >= ?`, [at]);
}

/** Whether a complete full scan of `branch` other than `scanId` stands at `at` or later. */
export async function laterHistoryScan(
  trx: Knex.Transaction,
  s: SiteRef,
  branch: string,
  at: string,
  scanId: string,
): Promise<boolean> {
  const row = await historyScans(trx, s, branch, at)
    .andWhereNot('id', scanId)
    .first<{ id: string } | undefined>('id');
  return row !== undefined;
}

/**
 * The site's complete full scans of `branch` from `at` on, oldest first (by time, then id), as history
 * reads them: their page keys and their violations by identity (a needs-review result is not an issue
 * to fix); with `onlyId`, that scan alone. Read one scan at a time, so a replay holds one scan's issues beside the spans.
 */
export async function* historyScansFrom(
  trx: Knex.Transaction,
  s: SiteRef,
  branch: string,
  at: string,
  onlyId?: string,
): AsyncGenerator<HistoryScan> {
  const q = historyScans(trx, s, branch, at);
  if (onlyId !== undefined) q.andWhere('id', onlyId);
  const scans = await q
    .orderByRaw(`${SCAN_TIME_SQL} asc, id asc`)
    .select<Array<{ id: string; at: string }>>('id', trx.raw(`${SCAN_TIME_SQL} as at`));
  for (const scan of scans) yield readHistoryScan(trx, scan.id, scan.at);
}

async function readHistoryScan(trx: Knex.Transaction, scanId: string, at: string): Promise<HistoryScan> {
  const pages = await trx('scan_pages')
    .where({ scan_id: scanId })
    .select<Array<{ page_index: number; normalized_url: string; viewport: string | null }>>(
      'page_index',
      'normalized_url',
      'viewport',
    );
  const keyOf = new Map(
    pages.map((p) => [p.page_index, viewportPageKey(pageKey(p.normalized_url), p.viewport)]),
  );
  const rows = await trx('scan_issues')
    .where({ scan_id: scanId, kind: 'violation' })
    .orderBy('id')
    .select<Array<{ page_index: number; fingerprint: string; rule: string; impact: Impact | null }>>(
      'page_index',
      'fingerprint',
      'rule',
      'impact',
    );
  const issues = new Map<string, ObservedIssue>();
  for (const r of rows) {
    if (issues.has(r.fingerprint)) continue;
    issues.set(r.fingerprint, { rule: r.rule, impact: r.impact, pageKey: keyOf.get(r.page_index) ?? '' });
  }
  return { at, pageKeys: new Set(keyOf.values()), issues };
}

/** The days (UTC) on which the site's full scans of `branch` stand, from `fromDay` on. */
export async function historyScanDays(
  trx: Knex.Transaction,
  s: SiteRef,
  branch: string,
  fromDay: string,
): Promise<string[]> {
  const rows = await trx('scans')
    .where({ org: s.org, site_id: s.siteId, branch, status: 'complete' })
    .andWhere((w) => {
      w.where('scope', 'full').orWhereNull('scope');
    })
    .andWhereRaw(`${SCAN_TIME_SQL} >= ?`, [`${fromDay}T00:00:00.000Z`])
    .distinct<Array<{ day: string }>>(trx.raw(`substr(${SCAN_TIME_SQL}, 1, 10) as day`));
  return rows.map((r) => r.day).sort();
}
