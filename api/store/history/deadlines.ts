import type { Knex } from 'knex';
import { IMPACTS } from '../../../core/impact.js';
import type { DeadlineDays, DeadlineOverrides } from '../../domain/history/deadlines.js';
import type { HistorySpan } from '../../domain/history/spans.js';
import type { SiteRef } from './spans.js';

/** Deadlines per impact: the org's (site_id '') and each site's overrides, one JSON document a row. */

const ORG = '';

export interface DeadlineSettings {
  org?: { days: DeadlineDays; updatedAt: string };
  site?: DeadlineOverrides;
}

export async function readDeadlineSettings(
  db: Knex,
  org: string,
  siteId?: string,
): Promise<DeadlineSettings> {
  const rows = await db('deadline_settings')
    .where({ org })
    .whereIn('site_id', siteId === undefined ? [ORG] : [ORG, siteId])
    .select<Array<{ site_id: string; days: string; updated_at: string }>>('site_id', 'days', 'updated_at');
  const out: DeadlineSettings = {};
  for (const r of rows) {
    if (r.site_id === ORG) out.org = { days: JSON.parse(r.days) as DeadlineDays, updatedAt: r.updated_at };
    else out.site = JSON.parse(r.days) as DeadlineOverrides;
  }
  return out;
}

/** Stores the org's days (`siteId` undefined) or a site's overrides, replacing what was there. */
export async function writeDeadlineSettings(
  db: Knex,
  org: string,
  siteId: string | undefined,
  days: DeadlineDays | DeadlineOverrides,
  now: string,
): Promise<void> {
  await db('deadline_settings')
    .insert({ org, site_id: siteId ?? ORG, days: JSON.stringify(days), updated_at: now })
    .onConflict(['org', 'site_id'])
    .merge(['days', 'updated_at']);
}

/** Sites with an open issue, the ones a deadline sweep looks at. */
export async function sitesWithOpenIssues(db: Knex): Promise<SiteRef[]> {
  const rows = await db('history_spans')
    .whereNull('ended_at')
    .distinct<Array<{ org: string; site_id: string }>>('org', 'site_id')
    .orderBy(['org', 'site_id']);
  return rows.map((r) => ({ org: r.org, siteId: r.site_id }));
}

/**
 * The site's open issues past their due date at `now` under `days`, with no breach recorded for their
 * count yet: each impact's cut-off is one condition on `due_from`, so the query reads the open spans only.
 */
export async function overdueUnrecorded(
  db: Knex,
  s: SiteRef,
  days: DeadlineDays,
  now: string,
  limit: number,
): Promise<HistorySpan[]> {
  const limits = IMPACTS.filter((i) => days[i] !== null);
  if (limits.length === 0) return [];
  const rows = await db('history_spans as h')
    .where({ 'h.org': s.org, 'h.site_id': s.siteId })
    .whereNull('h.ended_at')
    .andWhere((w) => {
      for (const i of limits) {
        const cutoff = new Date(Date.parse(now) - days[i]! * 86_400_000).toISOString();
        w.orWhere((x) => {
          x.where('h.impact', i).andWhere('h.due_from', '<', cutoff);
        });
      }
    })
    .whereNotExists(
      db('sla_breaches as b')
        .whereRaw(
          'b.org = h.org and b.site_id = h.site_id and b.fingerprint = h.fingerprint and b.due_from = h.due_from',
        )
        .select(db.raw('1')),
    )
    .orderBy('h.id')
    .limit(limit)
    .select<Array<Record<string, string>>>(
      'h.fingerprint',
      'h.rule',
      'h.impact',
      'h.page_key',
      'h.opened_at',
      'h.started_by',
      'h.due_from',
    );
  return rows.map((r) => ({
    fingerprint: r.fingerprint,
    rule: r.rule,
    impact: r.impact as HistorySpan['impact'],
    pageKey: r.page_key,
    openedAt: r.opened_at,
    startedBy: r.started_by as HistorySpan['startedBy'],
    dueFrom: r.due_from,
    endedAt: null,
    endedBy: null,
  }));
}

/**
 * Records an issue's breach once per identity and start of its count: true for the one caller whose row
 * went in (a second instance's insert waits for the first's commit, then finds the key taken).
 */
export async function recordBreach(
  trx: Knex.Transaction,
  s: SiteRef,
  span: Pick<HistorySpan, 'fingerprint' | 'dueFrom'>,
  now: string,
): Promise<boolean> {
  const rows = await trx('sla_breaches')
    .insert({
      org: s.org,
      site_id: s.siteId,
      fingerprint: span.fingerprint,
      due_from: span.dueFrom,
      breached_at: now,
    })
    .onConflict(['org', 'site_id', 'fingerprint', 'due_from'])
    .ignore()
    .returning('fingerprint');
  return rows.length === 1;
}
