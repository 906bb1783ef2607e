import type { Knex } from 'knex';
import { RetentionSweep } from '../../api/services/retention.js';
import { seeded, startBenchServer, table, type BenchSuite, type BenchTarget } from '../env.js';

/**
 * Database size under retention. Scans of 50 pages (5 issues a page, on a branch kept for one day) go in
 * through the API, 1,000 per cycle; at the end of each cycle a day passes (every stored scan is made two
 * days older) and the retention sweep runs until it has nothing left to remove. Reported: the database
 * bytes 1,000 such scans take, and the size at the fullest point of each cycle (1,000 scans in, before
 * the sweep) and after its sweep. Target: the fullest size of the last cycle within 10% of the second's
 * (space freed by the sweep is used again, so it stays flat). What still grows is the event outbox
 * (one `scan.created` message per scan), which retention does not remove: shown as its own figure.
 * The second cycle, not the first: on PostgreSQL, index pages a VACUUM frees can be used again only
 * after the next VACUUM, so the first cycle's space comes back one cycle late; SQLite is flat from the
 * first.
 *
 * Size = bytes in use: on SQLite (page_count − freelist_count) × page_size after a WAL checkpoint (the
 * file itself keeps its largest size until a VACUUM, which is also shown); on PostgreSQL the total size
 * of the schema's tables with their indexes and TOAST, after the plain VACUUM that autovacuum would run.
 */

const SCANS = Number(process.env.BENCH_RETENTION_SCANS ?? 1_000);
const CYCLES = Math.max(3, Number(process.env.BENCH_RETENTION_CYCLES ?? 4));
const PAGES = 50;
const ISSUES_PER_PAGE = 5;
const RULES = ['color-contrast', 'image-alt', 'label', 'link-name', 'button-name'];
const DAY = 86_400_000;

function scanBody(n: number, random: () => number): string {
  return JSON.stringify({
    siteId: 'retained',
    url: 'https://shop.example',
    sha: n.toString(16).padStart(40, '0'),
    branch: 'feature',
    pages: Array.from({ length: PAGES }, (_, p) => ({
      url: `https://shop.example/p/${p}`,
      title: `Page ${p}`,
      http_status: 200,
      issues: Array.from({ length: ISSUES_PER_PAGE }, (_, i) => ({
        rule: RULES[Math.floor(random() * RULES.length)],
        impact: 'serious',
        selector: `main > section:nth-child(${i}) #el-${n}-${p}-${i}`,
        html: `<img id="el-${n}-${p}-${i}" src="/img/${p}.png">`,
      })),
    })),
  });
}

interface Size {
  used: number;
  file: number;
}

async function databaseSize(db: Knex, kind: BenchTarget['kind']): Promise<Size> {
  if (kind === 'sqlite') {
    await db.raw('pragma wal_checkpoint(TRUNCATE)');
    const one = async (p: string) => {
      const rows = await db.raw<Array<Record<string, unknown>>>(`pragma ${p}`);
      return Number(Object.values(rows[0])[0]);
    };
    const [pages, free, size] = [
      await one('page_count'),
      await one('freelist_count'),
      await one('page_size'),
    ];
    return { used: (pages - free) * size, file: pages * size };
  }
  const tables = await db.raw<{ rows: Array<{ tablename: string }> }>(
    "select tablename from pg_tables where schemaname = current_schema() and tablename not like 'knex%'",
  );
  for (const { tablename } of tables.rows) await db.raw('vacuum ??', [tablename]);
  const { rows } = await db.raw<{ rows: Array<{ bytes: string }> }>(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'`,
  );
  return { used: Number(rows[0].bytes), file: Number(rows[0].bytes) };
}

async function ingest(url: string, key: string, from: number, count: number, random: () => number) {
  for (let n = from; n < from + count; n++) {
    const res = await fetch(`${url}/api/v1/scans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: scanBody(n, random),
    });
    if (res.status !== 201) throw new Error(`scan ${n}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  }
}

const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;

const suite: BenchSuite = {
  name: 'retention',
  async run(target) {
    const bench = await startBenchServer(target);
    try {
      const { db } = bench.server.service.ctx;
      const random = seeded(70);
      const patched = await fetch(`${bench.url}/api/v1/sites/retained`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ retention: { other_branch_days: 1 } }),
      });
      if (patched.status !== 200) throw new Error(`PATCH site: ${patched.status}`);
      const empty = await databaseSize(db, target.kind);
      const rows: Array<Record<string, string | number>> = [];
      const after: Size[] = [];
      const peaks: Size[] = [];
      let bytesPer1000 = 0;
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        const started = Date.now();
        await ingest(bench.url, bench.key, (cycle - 1) * SCANS, SCANS, random);
        const full = await databaseSize(db, target.kind);
        peaks.push(full);
        if (cycle === 1) bytesPer1000 = ((full.used - empty.used) * 1000) / SCANS;
        // A day passes for every scan stored so far; the sweep runs until a walk removes nothing.
        await db('scans').update({ created_at: new Date(Date.now() - 2 * DAY).toISOString() });
        const sweep = new RetentionSweep(bench.server.service.ctx);
        let runs = 0;
        for (let removed = 1; removed > 0; runs++) {
          const r = await sweep.run();
          removed = r.deploys + r.scansMarked + r.scansRemoved;
        }
        const swept = await databaseSize(db, target.kind);
        after.push(swept);
        const left = Number((await db('scans').count({ n: '*' }))[0].n);
        rows.push({
          cycle,
          scans_in: SCANS,
          mb_before_sweep: mb(full.used),
          sweep_runs: runs,
          scans_left: left,
          mb_after_sweep: mb(swept.used),
          file_mb: mb(swept.file),
          seconds: Math.round((Date.now() - started) / 100) / 10,
        });
      }
      table(rows);
      const growth = peaks[peaks.length - 1].used / peaks[1].used;
      const outbox = Number((await db('outbox_messages').count({ n: '*' }))[0].n);
      const figures = {
        scans_per_cycle: SCANS,
        pages_per_scan: PAGES,
        issues_per_scan: PAGES * ISSUES_PER_PAGE,
        bytes_per_1000_scans: Math.round(bytesPer1000),
        mb_per_1000_scans: mb(bytesPer1000),
        mb_full_each_cycle: peaks.map((s) => mb(s.used)),
        mb_after_each_sweep: after.map((s) => mb(s.used)),
        outbox_messages_kept: outbox,
        size_growth_second_to_last_cycle: Math.round(growth * 1000) / 1000,
      };
      console.log(figures);
      return figures;
    } finally {
      await bench.close();
    }
  },
};

export default suite;
