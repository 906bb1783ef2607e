import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { alternately, median, startBenchServer, type BenchTarget } from '../env.js';
import { measure } from './measure.js';
import { pageHtml } from './site.js';

/**
 * 1,000 loopback pages scanned by the bundled CLI as 1, 2 and 4 shards: N processes at once on this machine,
 * each `--shard i/N` of the same URL file, sending to one scan in the service. Per shard: pages per minute;
 * per run: the wall-clock time and the pages per minute of the whole. Then what sharding costs the
 * service: the same pages ingested as one whole scan and as 4 shards of one group (open, the shards' parts,
 * completion by the last), alternately, median times.
 */
const PAGES = 1000;
const SHARDINGS = [1, 2, 4];

async function startSite(pages: number): Promise<{ urls: string[]; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    if (!m || Number(m[1]) >= pages) {
      res.writeHead(req.url?.startsWith('/img/') ? 200 : 404, { 'content-type': 'image/png' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(Number(m[1])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: Array.from({ length: pages }, (_, i) => `${base}/p/${i}`),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const perMinute = (pages: number, seconds: number) => Math.round((pages / seconds) * 60 * 10) / 10;

interface ShardRun {
  shards: number;
  wall_seconds: number;
  total_pages_per_min: number;
  per_shard_pages_per_min: number[];
}

/** One sharded run: N CLI processes at once, each its shard, into one group. */
async function shardedRun(
  cli: string,
  n: number,
  ctx: { urlsFile: string; apiUrl: string; key: string; chromium: string; dir: string; out: string | null },
): Promise<ShardRun> {
  const started = Date.now();
  const group = `bench-${n}-${Date.now().toString(36)}`;
  const jobs = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const args = [
        cli,
        'scan',
        '--urls-file',
        ctx.urlsFile,
        '--shard',
        `${i + 1}/${n}`,
        '--scan-group',
        group,
      ];
      args.push('--api-url', ctx.apiUrl, '--site-id', `shards-${n}`, '--sha', 'f'.repeat(40));
      if (ctx.out) args.push('--out', ctx.out);
      return measure(
        process.execPath,
        args,
        { CHROME_PATH: ctx.chromium, A11Y_GATE_API_KEY: ctx.key },
        ctx.dir,
      );
    }),
  );
  const wall = (Date.now() - started) / 1000;
  for (const [i, j] of jobs.entries()) {
    if (j.code !== 0) throw new Error(`shard ${i + 1}/${n} exited ${j.code}: ${j.stderr.slice(-2000)}`);
  }
  const sizes = Array.from({ length: n }, (_, i) => Math.floor((PAGES - i - 1) / n) + 1);
  return {
    shards: n,
    wall_seconds: Math.round(wall * 10) / 10,
    total_pages_per_min: perMinute(PAGES, wall),
    per_shard_pages_per_min: jobs.map((j, i) => perMinute(sizes[i], j.seconds)),
  };
}

interface RawResult {
  url: string;
  passes: Array<{ id: string }>;
  inapplicable: Array<{ id: string }>;
}

/**
 * The pages of the raw results directory as the CLI submits them (axe form, passes and inapplicable by
 * rule id only: their nodes would take 1,000 pages past the body limit).
 */
export function pagesOf(out: string): Array<{ url: string; axe: unknown }> {
  return fs
    .readdirSync(out)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.failed.json'))
    .sort()
    .map((f) => {
      const raw = JSON.parse(fs.readFileSync(path.join(out, f), 'utf8')) as RawResult;
      const ids = (list: Array<{ id: string }>) => list.map((r) => ({ id: r.id }));
      return { url: raw.url, axe: { ...raw, passes: ids(raw.passes), inapplicable: ids(raw.inapplicable) } };
    });
}

/** Milliseconds to ingest the pages as one whole scan, and as 4 shards of one group. */
export async function ingestOverhead(target: BenchTarget, pages: Array<{ url: string; axe: unknown }>) {
  const bench = await startBenchServer(target);
  const headers = { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json' };
  const post = async (p: string, body: unknown) => {
    const res = await fetch(bench.url + p, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return (await res.json()) as { id: string; status?: string };
  };
  const head = { url: 'http://127.0.0.1/', siteId: 'ingest', sha: 'e'.repeat(40) };
  let round = 0;
  try {
    const [whole, sharded] = await alternately(3, [
      async () => {
        const t = performance.now();
        await post('/api/v1/scans', { ...head, pages });
        return performance.now() - t;
      },
      async () => {
        const t = performance.now();
        const opened = await post('/api/v1/scans', {
          ...head,
          complete: false,
          scan_group: `g${round++}`,
          shards: 4,
          pages: [],
        });
        for (let s = 1; s <= 4; s++) {
          const share = pages.filter((_, p) => p % 4 === s - 1);
          const answer = await post(`/api/v1/scans/${opened.id}/pages`, { shard: s, pages: share });
          if (s === 4 && answer.status !== 'complete')
            throw new Error('the last shard did not complete the scan');
        }
        return performance.now() - t;
      },
    ]);
    return { whole_ms: Math.round(median(whole)), sharded_ms: Math.round(median(sharded)) };
  } finally {
    await bench.close();
  }
}

export async function measureShards(
  target: BenchTarget,
  ctx: { cli: string; chromium: string },
): Promise<Record<string, unknown>> {
  const site = await startSite(PAGES);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-bench-shards-'));
  const bench = await startBenchServer(target);
  try {
    const urlsFile = path.join(dir, 'urls.txt');
    fs.writeFileSync(urlsFile, site.urls.join('\n') + '\n');
    const runs: ShardRun[] = [];
    for (const n of SHARDINGS) {
      const out = n === 1 ? path.join(dir, 'out') : null;
      const run = await shardedRun(ctx.cli, n, {
        urlsFile,
        apiUrl: bench.url,
        key: bench.key,
        chromium: ctx.chromium,
        dir,
        out,
      });
      console.log(
        `${n} shard(s): ${run.wall_seconds} s, ${run.total_pages_per_min} pages/min in all, per shard ${run.per_shard_pages_per_min.join(', ')}`,
      );
      runs.push(run);
    }
    const ingest = await ingestOverhead(target, pagesOf(path.join(dir, 'out')));
    const overhead = Math.round((ingest.sharded_ms / ingest.whole_ms - 1) * 1000) / 10;
    console.log(
      `ingest of ${PAGES} pages: whole ${ingest.whole_ms} ms, as 4 shards ${ingest.sharded_ms} ms (${overhead} %)`,
    );
    return {
      pages: PAGES,
      cpus: os.availableParallelism(),
      runs,
      ingest_whole_ms: ingest.whole_ms,
      ingest_4_shards_ms: ingest.sharded_ms,
      ingest_overhead_percent: overhead,
    };
  } finally {
    await Promise.all([site.close(), bench.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
