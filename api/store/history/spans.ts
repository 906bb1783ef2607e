import type { Knex } from 'knex';
import type { Impact } from '../../../core/impact.js';
import type { HistorySpan, SpanEnd, SpanStart } from '../../domain/history/spans.js';
import { dialectOf, insertInChunks } from '../db.js';

/** A site's spans (docs/portfolio.md): what the history's replay reads and writes. */

interface SpanRow {
  id: number;
  fingerprint: string;
  rule: string;
  impact: Impact | null;
  page_key: string;
  opened_at: string;
  started_by: SpanStart;
  due_from: string;
  ended_at: string | null;
  ended_by: SpanEnd | null;
}

const COLUMNS = [
  'id',
  'fingerprint',
  'rule',
  'impact',
  'page_key',
  'opened_at',
  'started_by',
  'due_from',
  'ended_at',
  'ended_by',
];

export interface SiteRef {
  org: string;
  siteId: string;
}

function spanFromRow(r: SpanRow): HistorySpan {
  return {
    id: Number(r.id),
    fingerprint: r.fingerprint,
    rule: r.rule,
    impact: r.impact,
    pageKey: r.page_key,
    openedAt: r.opened_at,
    startedBy: r.started_by,
    dueFrom: r.due_from,
    endedAt: r.ended_at,
    endedBy: r.ended_by,
  };
}

const site = (s: SiteRef) => ({ org: s.org, site_id: s.siteId });

/** Serialises the history writes of one site (PostgreSQL; SQLite has one writer) until the commit. */
export async function lockSiteHistory(trx: Knex.Transaction, s: SiteRef): Promise<void> {
  if (dialectOf(trx) !== 'postgres') return;
  await trx.raw("select pg_advisory_xact_lock(hashtext('a11y-gate history ' || ? || ' ' || ?))", [
    s.org,
    s.siteId,
  ]);
}

/**
 * Takes the site's spans back to just before `at`: spans opened from then on go, spans ended from then
 * on are open again. The replay of the scans from `at` on rebuilds them.
 */
export async function rewindSpans(trx: Knex.Transaction, s: SiteRef, at: string): Promise<void> {
  await trx('history_spans').where(site(s)).andWhere('opened_at', '>=', at).delete();
  await trx('history_spans')
    .where(site(s))
    .andWhere('ended_at', '>=', at)
    .update({ ended_at: null, ended_by: null });
}

/** The site's open spans, by identity. */
export async function openSpans(trx: Knex.Transaction, s: SiteRef): Promise<Map<string, HistorySpan>> {
  const rows = await trx('history_spans').where(site(s)).whereNull('ended_at').select<SpanRow[]>(COLUMNS);
  return new Map(rows.map((r) => [r.fingerprint, spanFromRow(r)]));
}

/** The latest span of each of `fingerprints` that has one. */
export async function latestSpansOf(
  trx: Knex.Transaction,
  s: SiteRef,
  fingerprints: readonly string[],
): Promise<Map<string, HistorySpan>> {
  const out = new Map<string, HistorySpan>();
  for (let i = 0; i < fingerprints.length; i += 500) {
    const rows = await trx('history_spans')
      .where(site(s))
      .whereIn('fingerprint', fingerprints.slice(i, i + 500))
      .orderBy('opened_at', 'asc')
      .select<SpanRow[]>(COLUMNS);
    for (const r of rows) out.set(r.fingerprint, spanFromRow(r));
  }
  return out;
}

/** Stores what the replay changed: ends of stored spans, and the spans it opened. */
export async function writeSpans(
  trx: Knex.Transaction,
  s: SiteRef,
  spans: readonly HistorySpan[],
): Promise<void> {
  const fresh = [];
  // Stored spans the replay ended, by how they ended: a replay ends most of them at one scan's time,
  // so one statement per end rather than one per span.
  const ends = new Map<string, number[]>();
  for (const span of spans) {
    if (span.id === undefined) {
      fresh.push({
        ...site(s),
        fingerprint: span.fingerprint,
        rule: span.rule,
        impact: span.impact,
        page_key: span.pageKey,
        opened_at: span.openedAt,
        started_by: span.startedBy,
        due_from: span.dueFrom,
        ended_at: span.endedAt,
        ended_by: span.endedBy,
      });
    } else {
      const end = JSON.stringify([span.endedAt, span.endedBy]);
      ends.set(end, [...(ends.get(end) ?? []), span.id]);
    }
  }
  for (const [end, ids] of ends) {
    const [endedAt, endedBy] = JSON.parse(end) as [string | null, SpanEnd | null];
    for (let i = 0; i < ids.length; i += 500) {
      await trx('history_spans')
        .whereIn('id', ids.slice(i, i + 500))
        .update({ ended_at: endedAt, ended_by: endedBy });
    }
  }
  await insertInChunks(trx, 'history_spans', fresh);
}

/** Every span of the site open at some time from `from` on (all spans when `from` is null). */
export async function spansSince(
  db: Knex,
  s: SiteRef,
  from: string | null,
  until?: string,
): Promise<HistorySpan[]> {
  const q = db('history_spans').where(site(s));
  if (from !== null)
    q.andWhere((w) => {
      w.whereNull('ended_at').orWhere('ended_at', '>=', from);
    });
  if (until !== undefined) q.andWhere('opened_at', '<', until);
  return (await q.orderBy('id').select<SpanRow[]>(COLUMNS)).map(spanFromRow);
}

/** Identities of the site: per fingerprint its latest span, its first time seen and its regressions. */
export interface IdentityRecord {
  span: HistorySpan;
  firstSeen: string;
  regressions: number;
}

/** A page of the site's identities in fingerprint order, after `after`, with a status filter. */
export async function listIdentities(
  db: Knex,
  s: SiteRef,
  filter: { status?: 'open' | 'fixed' | 'unscanned'; after?: string },
  limit: number,
): Promise<IdentityRecord[]> {
  const ranked = db('history_spans')
    .where(site(s))
    .select(
      ...COLUMNS,
      db.raw('row_number() over (partition by fingerprint order by opened_at desc) as rn'),
      db.raw('min(opened_at) over (partition by fingerprint) as first_seen'),
      db.raw(
        "sum(case when started_by = 'regression' then 1 else 0 end) over (partition by fingerprint) as regressions",
      ),
    );
  if (filter.after !== undefined) ranked.andWhere('fingerprint', '>', filter.after);
  const q = db.from(ranked.as('r')).where('rn', 1);
  if (filter.status === 'open') q.whereNull('ended_at');
  else if (filter.status) q.where('ended_by', filter.status);
  const rows = await q
    .orderBy('fingerprint')
    .limit(limit)
    .select<Array<SpanRow & { first_seen: string; regressions: number | string }>>();
  return rows.map((r) => ({
    span: spanFromRow(r),
    firstSeen: r.first_seen,
    regressions: Number(r.regressions),
  }));
}
