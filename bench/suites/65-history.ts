import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { insertInChunks } from '../../api/store/db.js';
import { keepQueuedHistory } from '../../api/services/history/keep.js';
import { portfolioSeries } from '../../api/services/portfolio/view.js';
import {
  alternately,
  median,
  seeded,
  startBenchServer,
  table,
  type BenchSuite,
  type BenchTarget,
} from '../env.js';

/**
 * A site's history at the size of a large organisation (docs/portfolio.md): SITES sites × DAYS daily
 * full scans of the base branch, stored as the history keeps them (each issue identity's spans and each
 * day's figures), written straight into the database from a fixed seed, since sending 365,000 scans
 * through the API would take hours. Then:
 *
 * - a site's year of history, `GET /api/v1/sites/:id/history?interval=day` over 365 days, for READS
 *   sites drawn at random after 5 warm-up reads: median and p95 of the round trip over loopback;
 *   target p95 ≤ 300 ms;
 * - the org view, `GET /api/v1/portfolio` (every site, the last 30 days and the last 365), ORG_READS
 *   times each after 2 warm-up reads: median and p95; target p95 ≤ 300 ms; and the org's series of the
 *   console's organisation page (`portfolioSeries`, in-process: 30 days by day, 365 by day and by month);
 * - what keeping the history costs the ingest, through the real path (`POST /api/v1/scans`): the same
 *   scans (PAGES pages × PER_PAGE issues, about 2 % changed from one to the next) sent to one of those
 *   sites on its base branch, where the scan is queued for the history, and on another branch, where it
 *   is not, in turns, ROUNDS times each after one warm-up each; target: the medians differ by ≤ 10 %.
 *   After each base-branch scan, before the next request, the queue is kept as the history job keeps it
 *   (`keepQueuedHistory`), timed apart: the work moved off the ingest, reported beside it.
 */

const SITES = Number(process.env.BENCH_HISTORY_SITES ?? 1_000);
const DAYS = Number(process.env.BENCH_HISTORY_DAYS ?? 365);
const READS = Number(process.env.BENCH_HISTORY_READS ?? 100);
const ROUNDS = Number(process.env.BENCH_HISTORY_ROUNDS ?? 15);
const ORG_READS = Number(process.env.BENCH_HISTORY_ORG_READS ?? 20);
const PAGES = 50;
const PER_PAGE = 20;
const DAY_MS = 86_400_000;
const ORG = 'bench';

const RULES = ['color-contrast', 'image-alt', 'label', 'link-name', 'region', 'button-name', 'list'];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'] as const;
type Impact = (typeof IMPACTS)[number];

const dayName = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface Span {
  org: string;
  site_id: string;
  fingerprint: string;
  rule: string;
  impact: Impact;
  page_key: string;
  opened_at: string;
  started_by: 'new' | 'regression';
  due_from: string;
  ended_at: string | null;
  ended_by: 'fixed' | null;
}

/**
 * One site's year, scan by scan: 20–80 issues open at the start; each day up to 3 new identities, up to
 * 3 open ones fixed and, one day in six, a fixed one back (a regression). Returns its spans, its day
 * rows and the issues open at the end.
 */
function siteYear(siteId: string, firstDay: number, random: () => number) {
  const spans: Span[] = [];
  const days: Array<Record<string, unknown>> = [];
  const open = new Map<string, Span>();
  const fixed: Span[] = [];
  let n = 0;
  const openIssue = (at: string, started: Span['started_by'], like?: Span) => {
    const rule = like?.rule ?? RULES[Math.floor(random() * RULES.length)];
    const span: Span = {
      org: ORG,
      site_id: siteId,
      fingerprint: like?.fingerprint ?? createHash('sha256').update(`${siteId} ${n++}`).digest('hex'),
      rule,
      impact: like?.impact ?? IMPACTS[Math.floor(random() * IMPACTS.length)],
      page_key: like?.page_key ?? `/p/${Math.floor(random() * PAGES)}`,
      opened_at: at,
      started_by: started,
      due_from: at,
      ended_at: null,
      ended_by: null,
    };
    spans.push(span);
    open.set(span.fingerprint, span);
  };
  const totals = { new_total: 0, fixed_total: 0, regressions_total: 0 };
  let before = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  const start = `${dayName(firstDay)}T06:00:00.000Z`;
  for (let i = 20 + Math.floor(random() * 60); i > 0; i--) openIssue(start, 'new');
  for (let d = 0; d < DAYS; d++) {
    const day = dayName(firstDay + d * DAY_MS);
    const at = `${day}T06:00:00.000Z`;
    let fresh = d === 0 ? open.size : 0;
    let ended = 0;
    let back = 0;
    if (d > 0) {
      for (let k = Math.floor(random() * 4); k > 0; k--, fresh++) openIssue(at, 'new');
      for (let k = Math.floor(random() * 4); k > 0 && open.size > 0; k--, ended++) {
        const span = [...open.values()][Math.floor(random() * open.size)];
        open.delete(span.fingerprint);
        Object.assign(span, { ended_at: at, ended_by: 'fixed' });
        fixed.push(span);
      }
      if (random() < 1 / 6 && fixed.length > 0) {
        const was = fixed.splice(Math.floor(random() * fixed.length), 1)[0];
        if (!open.has(was.fingerprint) && was.ended_at! < at) {
          openIssue(at, 'regression', was);
          back++;
        }
      }
    }
    const byImpact = { critical: 0, serious: 0, moderate: 0, minor: 0 };
    const byRule: Record<string, number> = {};
    for (const s of open.values()) {
      byImpact[s.impact]++;
      byRule[s.rule] = (byRule[s.rule] ?? 0) + 1;
    }
    totals.new_total += fresh;
    totals.fixed_total += ended;
    totals.regressions_total += back;
    const change = Object.fromEntries(IMPACTS.map((i) => [`open_${i}_change`, byImpact[i] - before[i]]));
    before = byImpact;
    days.push({
      ...totals,
      ...change,
      open_unknown_change: 0,
      org: ORG,
      site_id: siteId,
      day,
      open_critical: byImpact.critical,
      open_serious: byImpact.serious,
      open_moderate: byImpact.moderate,
      open_minor: byImpact.minor,
      open_unknown: 0,
      open_by_rule: JSON.stringify(byRule),
      new_count: fresh,
      fixed_count: ended,
      regressions: back,
      unscanned: 0,
    });
  }
  return { spans, days, openAtEnd: open.size };
}

/** Every site's year, written as the history keeps it; the issues each site has open at the end. */
async function storeYears(db: Knex, siteIds: string[], firstDay: number): Promise<Map<string, number>> {
  const random = seeded(65);
  const openAtEnd = new Map<string, number>();
  let spans = 0;
  for (const siteId of siteIds) {
    const year = siteYear(siteId, firstDay, random);
    await db.transaction(async (trx) => {
      await insertInChunks(trx, 'history_spans', year.spans as unknown as Array<Record<string, unknown>>);
      await insertInChunks(trx, 'history_days', year.days);
    });
    openAtEnd.set(siteId, year.openAtEnd);
    spans += year.spans.length;
  }
  console.log(`stored ${siteIds.length} sites × ${DAYS} days: ${spans.toLocaleString('en')} spans`);
  return openAtEnd;
}

/** ROUNDS + 1 scans of one site, each about 2 % different from the one before. */
function scanBodies(random: () => number): Array<(branch: string) => string> {
  let issues = Array.from({ length: PAGES * PER_PAGE }, (_, i) => i);
  let next = issues.length;
  return Array.from({ length: ROUNDS + 1 }, () => {
    issues = issues.map((i) => (random() < 0.02 ? next++ : i));
    const pages = Array.from({ length: PAGES }, (_, p) => ({
      url: `https://s.example/p/${p}`,
      issues: issues.slice(p * PER_PAGE, (p + 1) * PER_PAGE).map((i) => ({
        rule: RULES[i % RULES.length],
        impact: IMPACTS[i % IMPACTS.length],
        selector: `main > div:nth-child(${(i % 9) + 1}) #e-${i}`,
        html: `<a id="e-${i}" href="/x/${i}">Item ${i}</a>`,
        wcag: ['4.1.2'],
      })),
    }));
    return (branch: string) =>
      JSON.stringify({ siteId: 'site-0000', url: 'https://s.example/', branch, pages });
  });
}

function quantile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(s.length * q))] * 10) / 10;
}

const suite: BenchSuite = {
  name: 'history',
  async run(target: BenchTarget) {
    const bench = await startBenchServer(target, { MAX_SITES_PER_ORG: String(Math.max(1_000, SITES)) });
    const headers = { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json' };
    try {
      const siteIds = Array.from({ length: SITES }, (_, s) => `site-${String(s).padStart(4, '0')}`);
      for (const siteId of siteIds) {
        const res = await fetch(`${bench.url}/api/v1/sites/${siteId}`, {
          method: 'PATCH',
          headers,
          body: '{}',
        });
        if (res.status !== 200) throw new Error(`site ${siteId}: ${res.status} ${await res.text()}`);
      }
      const today = Date.parse(`${dayName(Date.now())}T00:00:00Z`);
      const started = performance.now();
      const openAtEnd = await storeYears(bench.server.service.ctx.db, siteIds, today - DAYS * DAY_MS);
      const storeSeconds = Math.round((performance.now() - started) / 100) / 10;
      // The state autovacuum leaves after a bulk insert (visibility map and statistics), as a service
      // that has kept a year of scans is in; SQLite has neither.
      if (target.kind === 'postgres')
        for (const table of ['history_spans', 'history_days'])
          await bench.server.service.ctx.db.raw('vacuum analyze ??', [table]);

      // A year of days, today included (today has no scan yet: it carries yesterday's figures).
      const from = dayName(today - 364 * DAY_MS);
      const to = dayName(today);
      const random = seeded(66);
      const read = async (siteId: string) => {
        const t = performance.now();
        const res = await fetch(
          `${bench.url}/api/v1/sites/${siteId}/history?interval=day&from=${from}&to=${to}`,
          {
            headers,
          },
        );
        const body = (await res.json()) as { points: Array<{ open_total: number }> };
        const ms = performance.now() - t;
        if (res.status !== 200)
          throw new Error(`history of ${siteId}: ${res.status} ${JSON.stringify(body)}`);
        // The read says what was stored: 365 days, and the open issues the last scan left.
        const last = body.points[body.points.length - 1];
        if (body.points.length !== 365 || last.open_total !== openAtEnd.get(siteId))
          throw new Error(`history of ${siteId}: ${body.points.length} points, ${last.open_total} open`);
        return ms;
      };
      const pick = () => siteIds[1 + Math.floor(random() * (SITES - 1))];
      for (let i = 0; i < 5; i++) await read(pick());
      const reads: number[] = [];
      for (let i = 0; i < READS; i++) reads.push(await read(pick()));

      // The org view over every site, the last 30 and 365 days: one read sums every site's kept figures.
      const orgRead = async (days: number) => {
        const t = performance.now();
        const res = await fetch(
          `${bench.url}/api/v1/portfolio?from=${dayName(today - (days - 1) * DAY_MS)}&to=${to}`,
          { headers },
        );
        const body = (await res.json()) as { sites: unknown[]; totals: { open_total: number } };
        const ms = performance.now() - t;
        if (res.status !== 200 || body.sites.length !== SITES)
          throw new Error(`portfolio: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        const open = [...openAtEnd.values()].reduce((a, b) => a + b, 0);
        if (body.totals.open_total !== open)
          throw new Error(`portfolio: ${body.totals.open_total} open, ${open} stored`);
        return ms;
      };
      const orgReads = async (days: number) => {
        for (let i = 0; i < 2; i++) await orgRead(days);
        const out: number[] = [];
        for (let i = 0; i < ORG_READS; i++) out.push(await orgRead(days));
        return out;
      };
      const org30 = await orgReads(30);
      const org365 = await orgReads(365);
      const ctx = bench.server.service.ctx;
      const series = async (days: number, interval: 'day' | 'month') => {
        const t = performance.now();
        const points = await portfolioSeries(ctx, ORG, {
          from: dayName(today - (days - 1) * DAY_MS),
          to,
          interval,
        });
        if (points.length === 0) throw new Error('portfolio series: no points');
        return performance.now() - t;
      };
      const seriesMs = {
        day30: await series(30, 'day'),
        day365: await series(365, 'day'),
        month365: await series(365, 'month'),
      };

      const bodies = scanBodies(seeded(67));
      let withRound = 0;
      let withoutRound = 0;
      const post = async (body: string) => {
        const t = performance.now();
        const res = await fetch(`${bench.url}/api/v1/scans`, { method: 'POST', headers, body });
        const ms = performance.now() - t;
        if (res.status !== 201) throw new Error(`scan: ${res.status} ${(await res.text()).slice(0, 300)}`);
        return ms;
      };
      // The same scans on the base branch (history kept) and on another branch (not kept), in turns.
      const keeping: number[] = [];
      const [kept, notKept] = await alternately(ROUNDS, [
        async () => {
          const ms = await post(bodies[withRound++]('main'));
          const t = performance.now();
          if ((await keepQueuedHistory(ctx.db, { org: ORG, siteId: 'site-0000' })) !== 1)
            throw new Error('the base-branch scan was not queued for the history');
          keeping.push(performance.now() - t);
          return ms;
        },
        () => post(bodies[withoutRound++]('feature')),
      ]);
      const keptMs = median(kept);
      const notKeptMs = median(notKept);
      const cost = Math.round((keptMs / notKeptMs - 1) * 1000) / 1000;
      const figures = {
        sites: SITES,
        days: DAYS,
        store_seconds: storeSeconds,
        read_median_ms: quantile(reads, 0.5),
        read_p95_ms: quantile(reads, 0.95),
        org_30_median_ms: quantile(org30, 0.5),
        org_30_p95_ms: quantile(org30, 0.95),
        org_365_median_ms: quantile(org365, 0.5),
        org_365_p95_ms: quantile(org365, 0.95),
        series_30_by_day_ms: Math.round(seriesMs.day30 * 10) / 10,
        series_365_by_day_ms: Math.round(seriesMs.day365 * 10) / 10,
        series_365_by_month_ms: Math.round(seriesMs.month365 * 10) / 10,
        ingest_issues: PAGES * PER_PAGE,
        ingest_kept_median_ms: Math.round(keptMs * 10) / 10,
        ingest_not_kept_median_ms: Math.round(notKeptMs * 10) / 10,
        aggregate_cost: cost,
        keep_median_ms: Math.round(median(keeping) * 10) / 10,
      };
      table([
        {
          figure: `a site's year by day (${READS} reads, ${SITES} sites × ${DAYS} days)`,
          median: figures.read_median_ms,
          p95: figures.read_p95_ms,
          target: 'p95 ≤ 300 ms',
        },
        {
          figure: `the org view, ${SITES} sites, last 30 days (${ORG_READS} reads)`,
          median: figures.org_30_median_ms,
          p95: figures.org_30_p95_ms,
          target: 'p95 ≤ 300 ms',
        },
        {
          figure: `the org view, ${SITES} sites, last 365 days (${ORG_READS} reads)`,
          median: figures.org_365_median_ms,
          p95: figures.org_365_p95_ms,
          target: 'p95 ≤ 300 ms',
        },
        {
          figure: "the org's series (console): 30 days by day / 365 by day / 365 by month, one read each",
          median: `${figures.series_30_by_day_ms} / ${figures.series_365_by_day_ms} / ${figures.series_365_by_month_ms} ms`,
          p95: '',
          target: '',
        },
        {
          figure: `ingest of ${PAGES * PER_PAGE} issues, base branch (queued) / other branch (median of ${ROUNDS})`,
          median: `${figures.ingest_kept_median_ms} / ${figures.ingest_not_kept_median_ms} ms`,
          p95: '',
          target: `≤ 10 % more (${Math.round(cost * 1000) / 10} %)`,
        },
        {
          figure: `keeping a queued scan's history (the history job's work, median of ${ROUNDS})`,
          median: `${figures.keep_median_ms} ms`,
          p95: '',
          target: 'off the ingest',
        },
      ]);
      return figures;
    } finally {
      await bench.close();
    }
  },
};

export default suite;
