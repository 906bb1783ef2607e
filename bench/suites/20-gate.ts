import { load, seeded, startBenchServer, table, type BenchSuite, type BenchTarget, poster } from '../env.js';

/**
 * The deploy gate: (1) `POST /api/v1/deploy/trigger` with a 50,000-issue head scan and a 50,000-issue
 * baseline (5,000 new, 5,000 fixed), against its floor measured in the same run on the same database:
 * the two plain queries that read the head's and the baseline's fingerprints (`select fingerprint from
 * scan_issues where scan_id = ?`, one each). The gate does at least that much work, so the ratio tells
 * what everything else costs (baseline lookup, matching, waivers, evaluation, storing the event, HTTP).
 * Measured twice: with the 45,000 other issues sharing their fingerprints, and with 10% of the head's
 * selectors changed (5,000 existing elements now wrapped in a `<div>` with a shifted `:nth-child`: their
 * fingerprints differ, so the matcher reads their details and pairs them by similarity).
 * (2) 20 concurrent clients triggering against 1,000-issue scans: requests per second, p50/p99.
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
 * `i` always has the same page, element and selector, so two scans share a fingerprint exactly when they
 * share an index (`offset` shifts the window) — except the first `changed` issues of the window, whose
 * selector changed as if the markup around them had (same element, another fingerprint).
 */
function scanBody(
  siteId: string,
  sha: string,
  branch: string,
  window: { issues: number; offset: number; changed?: number },
  random: () => number,
): string {
  const { issues, offset, changed = 0 } = window;
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
      selector:
        i < offset + changed
          ? `main > div.layout > section:nth-child(${(i % 17) + 2}) #el-${i}`
          : `main > section:nth-child(${(i % 17) + 1}) #el-${i}`,
      html: `<a id="el-${i}" href="/p/${i}" class="css-${(i % 97).toString(36)}x9q1">Item ${i}</a>`,
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
    const post = (path: string, body: string) =>
      poster(bench)<{ passed?: boolean; counts?: Record<string, number> }>(path, body);
    try {
      // (1) 50,000 issues each; the head drops the first 5,000 of the baseline and adds 5,000 new.
      const baseSha = hex40(0xba5e);
      const headSha = hex40(0x4ead);
      const driftSha = hex40(0xd41f7);
      const tenth = Math.round(ISSUES / 10);
      const baseline = await post(
        '/api/v1/scans',
        scanBody('big', baseSha, 'main', { issues: ISSUES, offset: 0 }, random),
      );
      const head = await post(
        '/api/v1/scans',
        scanBody('big', headSha, 'feature', { issues: ISSUES, offset: tenth }, random),
      );
      // The same head with 10% of its selectors changed (the 5,000 after the new ones' window start).
      const drifted = await post(
        '/api/v1/scans',
        scanBody('big', driftSha, 'feature', { issues: ISSUES, offset: tenth, changed: tenth }, random),
      );
      const db = bench.server.service.ctx.db;
      const floorOnce = async (headId: string) => {
        const t = performance.now();
        const a = await db('scan_issues').where({ scan_id: headId }).select('fingerprint');
        const b = await db('scan_issues').where({ scan_id: baseline.id }).select('fingerprint');
        if (a.length !== ISSUES || b.length !== ISSUES) throw new Error('floor read the wrong scans');
        return performance.now() - t;
      };
      let check: { counts?: Record<string, number>; similar_issues_total?: number } = {};
      const triggerFor = (sha: string) =>
        JSON.stringify({ siteId: 'big', sha, baseline_sha: baseSha, fail_on_serious: true, max_total: 100 });
      const gateOnce = async (sha: string) => {
        const t = performance.now();
        check = await post('/api/v1/deploy/trigger', triggerFor(sha));
        return performance.now() - t;
      };
      const measure = async (headId: string, sha: string, similar: number) => {
        // Warm both paths (query plans, JIT), then alternate so drift hits both alike.
        await floorOnce(headId);
        await gateOnce(sha);
        const floors: number[] = [];
        const gates: number[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          floors.push(await floorOnce(headId));
          gates.push(await gateOnce(sha));
        }
        const counts = check.counts ?? {};
        if (counts.new !== tenth || counts.fixed !== tenth || check.similar_issues_total !== similar) {
          throw new Error(
            `unexpected gate counts ${JSON.stringify(counts)}, ${check.similar_issues_total} similar`,
          );
        }
        return {
          ms: Math.round(median(gates)),
          floorMs: Math.round(median(floors)),
          ratio: Math.round((median(gates) / median(floors)) * 100) / 100,
          gates,
          floors,
        };
      };
      const shared = await measure(head.id, headSha, 0);
      const drift = await measure(drifted.id, driftSha, tenth);
      const { ms, floorMs, ratio } = drift;

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
      for (let i = 0; i < 3; i++) waived.push(await gateOnce(driftSha));
      const waivedMs = Math.round(median(waived));

      // (2) 20 clients triggering against 1,000-issue scans.
      await post(
        '/api/v1/scans',
        scanBody('small', hex40(0x5ba5e), 'main', { issues: 1_000, offset: 0 }, random),
      );
      const smallHead = hex40(0x54ead);
      await post(
        '/api/v1/scans',
        scanBody('small', smallHead, 'feature', { issues: 1_000, offset: 100 }, random),
      );
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
          figure: `trigger, ${ISSUES.toLocaleString('en')}-issue head + baseline, 10% of selectors changed (median of ${ROUNDS})`,
          ms,
          floor_ms: floorMs,
          ratio_to_floor: ratio,
        },
        {
          figure: `the same with every unchanged issue's fingerprint shared (median of ${ROUNDS})`,
          ms: shared.ms,
          floor_ms: shared.floorMs,
          ratio_to_floor: shared.ratio,
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
        },
      ]);
      return {
        ms,
        floor_ms: floorMs,
        ratio_to_floor: ratio,
        issues: ISSUES,
        rounds: ROUNDS,
        changed_selectors: tenth,
        with_selector_waivers_ms: waivedMs,
        gate_runs_ms: drift.gates.map(Math.round),
        floor_runs_ms: drift.floors.map(Math.round),
        shared_fingerprints: {
          ms: shared.ms,
          floor_ms: shared.floorMs,
          ratio_to_floor: shared.ratio,
          gate_runs_ms: shared.gates.map(Math.round),
          floor_runs_ms: shared.floors.map(Math.round),
        },
        concurrent: { clients: LOAD_CLIENTS, seconds: LOAD_SECONDS, ...loaded },
      };
    } finally {
      await bench.close();
    }
  },
};

export default suite;
