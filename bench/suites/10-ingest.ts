import fs from 'node:fs';
import type { Knex } from 'knex';
import path from 'node:path';
import { newId, nowIso } from '../../api/domain/ids.js';
import { createDb, insertInChunks } from '../../api/store/db.js';
import { createPgDatabase, ServerProcess } from '../../test/helpers/server-process.js';
import { seeded, table, type BenchSuite, type BenchTarget } from '../env.js';

/**
 * Ingest: `POST /api/v1/scans` of 1,000 pages × 50 issues (50,000 issues, about 19 MB of JSON) to the
 * real server running as a child process (what `npm start` runs), timed by the client from the first
 * byte sent to the 201. The floor, measured in the same run against the same database: `JSON.parse`
 * of the same body plus the same rows (one scans row, the pages, the issues) inserted with the same
 * driver in one transaction, the issues as hand-written multi-row INSERTs (`trx.raw`, as the issue
 * asks: not knex's query builder, whose compile time for 500-row inserts would flatter the ratio):
 * 500 rows per statement on SQLite (its limit), 5,000 on PostgreSQL (65,000 bindings, under the
 * protocol's 65,535). Whatever the service does beyond
 * that (HTTP, validation, URL and selector normalisation, fingerprints, summary, the site row, the
 * outbox event) is what the ratio prices. Median of ROUNDS interleaved rounds; peak RSS of the server.
 */

const PAGES = Number(process.env.BENCH_INGEST_PAGES ?? 1_000);
/** Pages of the scan whose memory is measured: about 24.7 MB of JSON, just under the 25 MB limit. */
const MEMORY_PAGES = Number(process.env.BENCH_MEMORY_PAGES ?? 1_180);
const PER_PAGE = 50;
const ROUNDS = Number(process.env.BENCH_INGEST_ROUNDS ?? 3);

const RULES: Array<[string, string[]]> = [
  ['color-contrast', ['1.4.3']],
  ['image-alt', ['1.1.1']],
  ['label', ['4.1.2']],
  ['link-name', ['2.4.4', '4.1.2']],
  ['button-name', ['4.1.2']],
  ['region', []],
  ['list', ['1.3.1']],
  ['heading-order', []],
  ['aria-required-attr', ['4.1.2']],
  ['target-size', ['2.5.8']],
];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

function scanBody(sha: string, random: () => number, pageCount = PAGES) {
  const pages = [];
  for (let p = 0; p < pageCount; p++) {
    const issues = [];
    for (let i = 0; i < PER_PAGE; i++) {
      const [rule, wcag] = RULES[Math.floor(random() * RULES.length)];
      const hash = Math.floor(random() * 36 ** 6).toString(36);
      issues.push({
        rule,
        impact: IMPACTS[Math.floor(random() * IMPACTS.length)],
        message:
          'Fix any of the following:\n  Element has insufficient color contrast of 3.1 (expected 4.5:1)',
        selector: `main > section:nth-child(${(i % 9) + 1}) > div.css-${hash}1 > a#item-${p}-${i}`,
        html: `<a id="item-${p}-${i}" class="css-${hash}1" href="/product/${p}/${i}">Product ${i} – see the details</a>`,
        wcag,
        help_url: `https://dequeuniversity.com/rules/axe/4.14/${rule}?application=axeAPI`,
      });
    }
    pages.push({
      url: `https://shop.example.com/catalog/${p}?utm_source=crawler`,
      title: `Catalog page ${p}`,
      final_url: `https://shop.example.com/catalog/${p}`,
      http_status: 200,
      issues,
    });
  }
  return {
    url: 'https://shop.example.com/',
    siteId: 'bench-shop',
    sha,
    branch: 'main',
    engine: { name: 'axe-core', version: '4.14.1' },
    pages,
  };
}

const ISSUE_COLUMNS = [
  'scan_id',
  'page_index',
  'rule',
  'impact',
  'kind',
  'message',
  'selector',
  'html',
  'wcag',
  'help_url',
  'source_path',
  'source_line',
  'fingerprint',
] as const;
type IssueRow = Record<(typeof ISSUE_COLUMNS)[number], string | number | null>;

/** Raw multi-row INSERTs of the issues, as many rows per statement as the database allows. */
async function insertIssuesRaw(trx: Knex.Transaction, rows: IssueRow[], postgres: boolean) {
  const perStatement = postgres ? 5000 : 500;
  const tuple = `(${ISSUE_COLUMNS.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const bindings: Array<string | number | null> = [];
    for (const row of chunk) for (const c of ISSUE_COLUMNS) bindings.push(row[c]);
    await trx.raw(
      `insert into scan_issues (${ISSUE_COLUMNS.join(', ')}) values ${new Array(chunk.length).fill(tuple).join(', ')}`,
      bindings,
    );
  }
}

/** The floor: parse the same body and insert the same rows, nothing else. */
async function floorOnce(db: ReturnType<typeof createDb>, text: string, postgres: boolean): Promise<number> {
  const started = performance.now();
  const body = JSON.parse(text) as ReturnType<typeof scanBody>;
  const id = newId('scn');
  const now = nowIso();
  const pages = body.pages.map((p, index) => ({
    scan_id: id,
    page_index: index,
    url: p.url,
    normalized_url: p.final_url,
    title: p.title,
    final_url: p.final_url,
    http_status: p.http_status,
    issue_count: p.issues.length,
  }));
  const issues: IssueRow[] = body.pages.flatMap((p, index) =>
    p.issues.map((i) => ({
      scan_id: id,
      page_index: index,
      rule: i.rule,
      impact: i.impact,
      kind: 'violation',
      message: i.message,
      selector: i.selector,
      html: i.html,
      wcag: i.wcag.join(',') || null,
      help_url: i.help_url,
      source_path: null,
      source_line: null,
      // A constant of the real fingerprint's size: the floor does not hash.
      fingerprint: '0'.repeat(64),
    })),
  );
  await db.transaction(async (trx) => {
    await trx('scans').insert({
      id,
      org: 'floor',
      site_id: 'floor-site',
      url: body.url,
      sha: body.sha,
      branch: body.branch,
      engine_name: body.engine.name,
      engine_version: body.engine.version,
      page_count: pages.length,
      issue_count: issues.length,
      summary: '{}',
      warnings: '[]',
      fingerprint_version: 1,
      created_at: now,
    });
    await insertInChunks(trx, 'scan_pages', pages);
    await insertIssuesRaw(trx, issues, postgres);
  });
  return performance.now() - started;
}

async function postOnce(url: string, key: string, text: string, retry = true): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/v1/scans`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: text,
  }).catch((err: { cause?: { code?: string } }) => {
    // A kept-alive connection the server closed after 5 s idle (the floor ran meanwhile) fails
    // before the request reaches the server: send it again, once, on a new connection.
    if (retry && /EPIPE|ECONNRESET|UND_ERR_SOCKET/.test(String(err.cause?.code))) return undefined;
    throw err;
  });
  if (!res) return postOnce(url, key, text, false);
  const answer = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 201) throw new Error(`ingest answered ${res.status}: ${answer.slice(0, 500)}`);
  return ms;
}

function procStatusMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024);
  } catch {
    return undefined;
  }
}

const peakRssMb = (pid: number | undefined) => procStatusMb(pid, 'VmHWM');

const PARTS_PAGES = Number(process.env.BENCH_PARTS_PAGES ?? 100_000);
const PART_SIZE = 5_000;

async function call(url: string, key: string, path: string, body: unknown, idem?: string) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...(idem ? { 'idempotency-key': idem } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300)
    throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** A crawl too big for one request: PARTS_PAGES pages (2 issues each) sent in parts of 5,000 pages. */
async function scanInParts(url: string, key: string) {
  const started = performance.now();
  const open = await call(url, key, '/api/v1/scans', {
    url: 'https://big.example.com/',
    siteId: 'bench-parts',
    sha: 'c'.repeat(40),
    branch: 'main',
    complete: false,
    pages: [],
  });
  const id = String(open.id);
  for (let first = 0; first < PARTS_PAGES; first += PART_SIZE) {
    const pages = Array.from({ length: Math.min(PART_SIZE, PARTS_PAGES - first) }, (_, i) => ({
      url: `/docs/${first + i}`,
      title: `Doc ${first + i}`,
      issues: [
        { rule: 'image-alt', impact: 'critical', selector: `#hero-${first + i} > img`, wcag: ['1.1.1'] },
        { rule: 'link-name', impact: 'serious', selector: `nav a.css-${first + i}x`, wcag: ['2.4.4'] },
      ],
    }));
    await call(url, key, `/api/v1/scans/${id}/pages`, { pages }, `${id}-${first}`);
  }
  const done = await call(url, key, `/api/v1/scans/${id}/complete`, undefined);
  const seconds = (performance.now() - started) / 1000;
  const stored = (done.summary as { pages: number }).pages;
  if (stored !== PARTS_PAGES) throw new Error(`scan in parts: ${stored} of ${PARTS_PAGES} pages stored`);
  return {
    parts_pages: stored,
    parts_issues: (done.summary as { issues: number }).issues,
    parts_seconds: Math.round(seconds * 10) / 10,
    parts_pages_per_s: Math.round(stored / seconds),
  };
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

const suite: BenchSuite = {
  name: 'ingest',
  async run(target: BenchTarget) {
    const database = target.databaseUrl
      ? await createPgDatabase(target.databaseUrl, 'a11y_bench_ingest')
      : undefined;
    const server = new ServerProcess({
      databaseUrl: database?.url,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', WEBHOOK_WORKER: 'false' },
    });
    let floorDb: ReturnType<typeof createDb> | undefined;
    try {
      await server.start();
      const { key } = await server.createKey('bench');
      // The floor writes to the same database the server uses (the SQLite file in WAL mode, or the same
      // PostgreSQL database), with the service's own connection settings.
      floorDb = createDb({ url: database?.url, dataDir: server.dataDir });
      const postgres = database !== undefined;
      const random = seeded(10);
      const object = scanBody('0'.repeat(40), random);
      const bodies = Array.from({ length: ROUNDS + 1 }, (_, r) =>
        JSON.stringify({ ...object, sha: (r + 1).toString(16).padStart(40, 'a') }),
      );
      const issues = PAGES * PER_PAGE;
      const mb = Math.round((Buffer.byteLength(bodies[0]) / 1024 / 1024) * 10) / 10;

      // Memory: the largest scan the body limit allows, as the server's second; the growth of its peak
      // RSS over its RSS before is what one big scan costs (the process's peak is never lower later).
      const big = JSON.stringify(scanBody('f'.repeat(40), seeded(11), MEMORY_PAGES));
      const bigMb = Buffer.byteLength(big) / 1024 / 1024;
      // A small scan first, so modules, schemas and compiled code are not counted as the big one's.
      await postOnce(server.url, key, JSON.stringify(scanBody('e'.repeat(40), seeded(12), 5)));
      const rssBefore = procStatusMb(server.pid, 'VmRSS') ?? 0;
      await postOnce(server.url, key, big);
      const growthMb = (peakRssMb(server.pid) ?? 0) - rssBefore;

      // Warm-up of both paths (JIT, connection pool, SQLite page cache), not counted.
      await postOnce(server.url, key, bodies[0]);
      await floorOnce(floorDb, bodies[0], postgres);

      const ours: number[] = [];
      const floor: number[] = [];
      for (let r = 1; r <= ROUNDS; r++) {
        ours.push(await postOnce(server.url, key, bodies[r]));
        floor.push(await floorOnce(floorDb, bodies[r], postgres));
      }
      const oursMs = median(ours);
      const floorMs = median(floor);
      const figures = {
        pages: PAGES,
        issues,
        body_mb: mb,
        ms: Math.round(oursMs),
        floor_ms: Math.round(floorMs),
        issues_per_s: Math.round(issues / (oursMs / 1000)),
        floor_issues_per_s: Math.round(issues / (floorMs / 1000)),
        ratio_to_floor: Math.round((floorMs / oursMs) * 100) / 100,
        peak_rss_mb: peakRssMb(server.pid) ?? -1,
        big_body_mb: Math.round(bigMb * 10) / 10,
        rss_before_big_mb: rssBefore,
        rss_growth_mb: growthMb,
        rss_growth_to_body: Math.round((growthMb / bigMb) * 100) / 100,
        rounds: ROUNDS,
        ...(PARTS_PAGES > 0 ? await scanInParts(server.url, key) : {}),
      };
      table([figures]);
      return figures;
    } catch (err) {
      // What the server said before it failed is the first thing to look at.
      console.error(server.logs.slice(-20).join('\n'));
      throw err;
    } finally {
      await floorDb?.destroy();
      await server.dispose();
      await database?.drop();
      if (!target.databaseUrl) fs.rmSync(path.join(server.dataDir), { recursive: true, force: true });
    }
  },
};

export default suite;
