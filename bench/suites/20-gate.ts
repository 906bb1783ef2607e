import { load, seeded, startBenchServer, table, type BenchSuite, type BenchTarget } from '../env.js';

/**
 * The deploy gate: (1) `POST /api/v1/deploy/trigger` with a 50,000-issue head scan and a 50,000-issue
 * baseline (45,000 shared fingerprints, 5,000 new, 5,000 fixed), against its floor measured in the
 * same run on the same database: the two plain queries that read the head's and the baseline's
 * fingerprints (`select fingerprint from scan_issues where scan_id = ?`, one each). The gate does at
 * least that much work, so the ratio tells what everything else costs (baseline lookup, waivers,
 * evaluation, storing the event, HTTP). (2) 20 concurrent clients triggering against 1,000-issue
 * scans: requests per second, p50/p99.
 */

const ISSUES = Number(process.env.BENCH_GATE_ISSUES ?? 50_000);
const PAGES = 1_000;
const ROUNDS = Number(process.env.BENCH_GATE_ROUNDS ?? 7);
const LOAD_SECONDS = Number(process.env.BENCH_GATE_LOAD_SECONDS ?? 10);
const LOAD_CLIENTS = 20;
const WAIVERS = 200;

const RULES = [
  'color-contrast',
  'image-alt',
  'label',
  'link-name',
  'region',
  'button-name',
  'list',
  'heading-order',
];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];

function hex40(n: number): string {
  return n.toString(16).padStart(40, '0');
}

/**
 * A scan of issues `offset … offset + issues - 1` of one population, about PAGES pages of them. Issue
 * `i` always has the same page and selector, so two scans share a fingerprint exactly when they share
 * an index: `offset` shifts the window.
 */
function scanBody(
  siteId: string,
  sha: string,
  branch: string,
  issues: number,
  offset: number,
  random: () => number,
): string {
  const perPage = Math.ceil(issues / PAGES);
  // The page is a function of the issue index too (fingerprints include the page's path).
  const byPage = new Map<number, unknown[]>();
  for (let i = offset; i < offset + issues; i++) {
    const p = Math.floor(i / perPage);
    const list = byPage.get(p) ?? [];
    list.push({
      rule: RULES[i % RULES.length],
      // Mostly moderate/minor, a few severe ones: a realistic mix.
      impact: IMPACTS[Math.min(3, Math.floor(random() * 4.2))],
      selector: `main > section:nth-child(${i % 17}) #el-${i}`,
      message: 'Elements must meet minimum color contrast ratio thresholds',
      wcag: ['1.4.3'],
      help_url: `https://dequeuniversity.com/rules/axe/4.10/${RULES[i % RULES.length]}`,
    });
    byPage.set(p, list);
  }
  const pages = [...byPage].map(([p, list]) => ({ url: `https://shop.example/p/${p}`, issues: list }));
  return JSON.stringify({ siteId, url: 'https://shop.example', sha, branch, pages });
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const suite: BenchSuite = {
  name: 'gate',
  async run(target: BenchTarget) {
    const bench = await startBenchServer(target);
    const random = seeded(20);
    const headers = { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json' };
    const post = async (path: string, body: string) => {
      const res = await fetch(bench.url + path, { method: 'POST', headers, body });
      const parsed = (await res.json()) as { id: string; passed?: boolean; counts?: Record<string, number> };
      if (res.status !== 201)
        throw new Error(`${path}: ${res.status} ${JSON.stringify(parsed).slice(0, 500)}`);
      return parsed;
    };
    try {
      // (1) 50,000 issues each; the head drops the first 5,000 of the baseline and adds 5,000 new.
      const baseSha = hex40(0xba5e);
      const headSha = hex40(0x4ead);
      const baseline = await post('/api/v1/scans', scanBody('big', baseSha, 'main', ISSUES, 0, random));
      const head = await post(
        '/api/v1/scans',
        scanBody('big', headSha, 'feature', ISSUES, Math.round(ISSUES / 10), random),
      );
      const trigger = JSON.stringify({ siteId: 'big', sha: headSha, fail_on_serious: true, max_total: 100 });
      const db = bench.server.service.ctx.db;
      const floorOnce = async () => {
        const t = performance.now();
        const a = await db('scan_issues').where({ scan_id: head.id }).select('fingerprint');
        const b = await db('scan_issues').where({ scan_id: baseline.id }).select('fingerprint');
        if (a.length !== ISSUES || b.length !== ISSUES) throw new Error('floor read the wrong scans');
        return performance.now() - t;
      };
      let check: { counts?: Record<string, number> } = {};
      const gateOnce = async () => {
        const t = performance.now();
        check = await post('/api/v1/deploy/trigger', trigger);
        return performance.now() - t;
      };
      // Warm both paths (query plans, JIT), then alternate so drift hits both alike.
      await floorOnce();
      await gateOnce();
      const floors: number[] = [];
      const gates: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        floors.push(await floorOnce());
        gates.push(await gateOnce());
      }
      const counts = check.counts ?? {};
      if (counts.new !== ISSUES / 10 || counts.fixed !== ISSUES / 10) {
        throw new Error(`unexpected gate counts ${JSON.stringify(counts)}`);
      }
      const ms = Math.round(median(gates));
      const floorMs = Math.round(median(floors));
      const ratio = Math.round((median(gates) / median(floors)) * 100) / 100;

      // (1b) The same trigger with 200 active waivers naming selectors on one rule (a site that waives
      // elements one by one): matching must stay one normalisation per issue, not one per waiver.
      const expires = new Date(Date.now() + 30 * 86_400_000).toISOString();
      for (let i = 0; i < WAIVERS; i++) {
        await post(
          '/api/v1/waivers',
          JSON.stringify({
            siteId: 'big',
            rule: 'color-contrast',
            selector: `#promo-${i} > .cta`,
            reason: 'bench',
            expires_at: expires,
          }),
        );
      }
      const waived: number[] = [];
      for (let i = 0; i < 3; i++) waived.push(await gateOnce());
      const waivedMs = Math.round(median(waived));

      // (2) 20 clients triggering against 1,000-issue scans.
      await post('/api/v1/scans', scanBody('small', hex40(0x5ba5e), 'main', 1_000, 0, random));
      const smallHead = hex40(0x54ead);
      await post('/api/v1/scans', scanBody('small', smallHead, 'feature', 1_000, 100, random));
      const loaded = await load(
        bench.url,
        {
          method: 'POST',
          path: '/api/v1/deploy/trigger',
          headers,
          body: JSON.stringify({ siteId: 'small', sha: smallHead }),
        },
        LOAD_CLIENTS,
        LOAD_SECONDS,
      );
      // autocannon stops without waiting for answers still queued in the server: one more request,
      // answered after them, lets the server finish before it is closed.
      await post('/api/v1/deploy/trigger', JSON.stringify({ siteId: 'small', sha: smallHead }));

      table([
        {
          figure: `trigger, ${ISSUES.toLocaleString('en')}-issue head + baseline (median of ${ROUNDS})`,
          ms,
          floor_ms: floorMs,
          ratio_to_floor: ratio,
        },
        {
          figure: `the same with ${WAIVERS} selector waivers on one rule (median of 3)`,
          ms: waivedMs,
        },
        {
          figure: `${LOAD_CLIENTS} clients × ${LOAD_SECONDS} s, 1,000-issue scans`,
          req_per_s: loaded.req_per_s,
          p50_ms: loaded.p50_ms,
          p99_ms: loaded.p99_ms,
          errors: loaded.errors + loaded.non_2xx,
        } as Record<string, string | number>,
      ]);
      return {
        ms,
        floor_ms: floorMs,
        ratio_to_floor: ratio,
        issues: ISSUES,
        rounds: ROUNDS,
        with_selector_waivers_ms: waivedMs,
        gate_runs_ms: gates.map(Math.round),
        floor_runs_ms: floors.map(Math.round),
        concurrent: { clients: LOAD_CLIENTS, seconds: LOAD_SECONDS, ...loaded },
      };
    } finally {
      await bench.close();
    }
  },
};

export default suite;
