import type { Knex } from 'knex';
import { SCAN_TIME_SQL } from './scans.js';
import type { SiteRef } from './spans.js';

/** Where a scan page shows an issue: the scan and the index of the page it is on. */
export interface Sighting {
  scanId: string;
  pageIndex: number;
}

/** The site's history scans (complete full scans of `branch`) with the time each stands at. */
function historyScans(db: Knex, s: SiteRef, branch: string) {
  return db('scans')
    .where({ org: s.org, site_id: s.siteId, branch, status: 'complete' })
    .andWhere((w) => {
      w.where('scope', 'full').orWhereNull('scope');
    });
}

/** Where each of `fingerprints` is in the site's latest history scan (open issues are all in it). */
export async function sightingsInLatestScan(
  db: Knex,
  s: SiteRef,
  branch: string,
  fingerprints: readonly string[],
): Promise<Map<string, Sighting>> {
  const out = new Map<string, Sighting>();
  if (fingerprints.length === 0) return out;
  const scan = await historyScans(db, s, branch)
    .orderByRaw(`${SCAN_TIME_SQL} desc, id desc`)
    .first<{ id: string } | undefined>('id');
  if (!scan) return out;
  const rows = await db('scan_issues')
    .where({ scan_id: scan.id, kind: 'violation' })
    .whereIn('fingerprint', [...fingerprints])
    .groupBy('fingerprint')
    .select<Array<{ fingerprint: string; page_index: number | string }>>(
      'fingerprint',
      db.raw('min(page_index) as page_index'),
    );
  for (const r of rows) out.set(r.fingerprint, { scanId: scan.id, pageIndex: Number(r.page_index) });
  return out;
}

/**
 * The last history scan that had each of `fingerprints` (a fixed issue, or one whose page left the
 * scans), and the page it was on. An issue whose scans retention removed has none.
 */
export async function lastSightings(
  db: Knex,
  s: SiteRef,
  branch: string,
  fingerprints: readonly string[],
): Promise<Map<string, Sighting>> {
  const out = new Map<string, Sighting>();
  if (fingerprints.length === 0) return out;
  const scans = historyScans(db, s, branch)
    .select('id', db.raw(`${SCAN_TIME_SQL} as at`))
    .as('s');
  const ranked = db
    .from('scan_issues as i')
    .join(scans, 's.id', 'i.scan_id')
    .where('i.kind', 'violation')
    .whereIn('i.fingerprint', [...fingerprints])
    .select(
      'i.fingerprint',
      'i.scan_id',
      'i.page_index',
      db.raw(
        'row_number() over (partition by i.fingerprint order by s.at desc, s.id desc, i.page_index) as rn',
      ),
    );
  const rows = await db
    .from(ranked.as('r'))
    .where('rn', 1)
    .select<Array<{ fingerprint: string; scan_id: string; page_index: number | string }>>(
      'fingerprint',
      'scan_id',
      'page_index',
    );
  for (const r of rows) out.set(r.fingerprint, { scanId: r.scan_id, pageIndex: Number(r.page_index) });
  return out;
}
