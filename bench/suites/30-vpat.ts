import {
  alternately,
  median,
  poster,
  seeded,
  startBenchServer,
  table,
  type BenchSuite,
  type BenchTarget,
} from '../env.js';

/**
 * VPAT generation: `POST /api/v1/vpat/generate` (WCAG 2.2 AA) from one 50,000-issue scan over 1,000
 * pages, against its floor measured in the same run on the same database: the one aggregate query
 * every report needs, the scan's issues grouped by rule, kind, criteria and page. Generation does at
 * least that much work, so the ratio is what everything else costs (scan and pages lookup, waivers,
 * derivation, storing the report and its event, HTTP and JSON). The site has three waivers (rule,
 * url_pattern, selector), so the waived counts are part of the work. Target: within 2× of the floor.
 * The PDF of the same report (generation, then `?format=pdf`) stays under 3× the JSON report's time.
 */

const ISSUES = Number(process.env.BENCH_VPAT_ISSUES ?? 50_000);
const PAGES = 1_000;
const ROUNDS = Number(process.env.BENCH_VPAT_ROUNDS ?? 7);

/** axe-core rules with the criteria their tags name, as a scan of axe output would carry them. */
const RULES: Array<[string, string[]]> = [
  ['color-contrast', ['1.4.3']],
  ['image-alt', ['1.1.1']],
  ['label', ['4.1.2']],
  ['link-name', ['2.4.4', '4.1.2']],
  ['button-name', ['4.1.2']],
  ['list', ['1.3.1']],
  ['region', []],
  ['target-size', ['2.5.8']],
];

function scanBody(issues: number, random: () => number): string {
  const perPage = Math.ceil(issues / PAGES);
  const byPage = new Map<number, unknown[]>();
  for (let i = 0; i < issues; i++) {
    const p = Math.floor(i / perPage);
    const [rule, wcag] = RULES[Math.floor(random() * RULES.length)];
    const list = byPage.get(p) ?? [];
    list.push({
      rule,
      impact: 'serious',
      // About one in ten results is "needs review".
      kind: random() < 0.1 ? 'incomplete' : 'violation',
      selector: `main > section:nth-child(${i % 17}) #el-${i}`,
      wcag,
      help_url: `https://dequeuniversity.com/rules/axe/4.14/${rule}`,
    });
    byPage.set(p, list);
  }
  const pages = [...byPage].map(([p, list]) => ({ url: `https://shop.example/p/${p}`, issues: list }));
  return JSON.stringify({
    siteId: 'vpat',
    url: 'https://shop.example',
    sha: 'c0ffee'.padEnd(40, '0'),
    branch: 'main',
    rules_run: [...RULES.map(([r]) => r), 'html-has-lang', 'document-title'],
    pages,
  });
}

const suite: BenchSuite = {
  name: 'vpat',
  async run(target: BenchTarget) {
    const bench = await startBenchServer(target);
    const headers = { authorization: `Bearer ${bench.key}`, 'content-type': 'application/json' };
    const post = (path: string, body: string) =>
      poster(bench)<{ criteria?: unknown[]; status?: string }>(path, body);
    try {
      const scan = await post('/api/v1/scans', scanBody(ISSUES, seeded(30)));
      // A site with waivers, as most have: one for a whole rule, one by url_pattern, one by selector. Waived
      // violations still count, but the report says how many are waived, so generation has to match them.
      const waiver = (body: Record<string, string>) =>
        post(
          '/api/v1/waivers',
          JSON.stringify({
            siteId: 'vpat',
            reason: 'bench',
            expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
            ...body,
          }),
        );
      await waiver({ rule: 'color-contrast' });
      await waiver({ rule: 'image-alt', url_pattern: '/p/1*' });
      await waiver({ rule: 'list', selector: 'main > section:nth-child(3) #el-3' });
      const generate = JSON.stringify({
        siteId: 'vpat',
        scan_id: scan.id,
        product: { name: 'Shop', version: '1.0' },
        wcag_version: '2.2',
        level: 'AA',
      });
      const db = bench.server.service.ctx.db;
      const floorOnce = async () => {
        const t = performance.now();
        const rows = await db('scan_issues')
          .where({ scan_id: scan.id })
          .groupBy('rule', 'kind', 'wcag', 'page_index')
          .select('rule', 'kind', 'wcag', 'page_index')
          .count({ n: '*' });
        if (rows.length === 0) throw new Error('floor read nothing');
        return performance.now() - t;
      };
      let report: { criteria?: unknown[] } = {};
      const generateOnce = async () => {
        const t = performance.now();
        report = await post('/api/v1/vpat/generate', generate);
        return performance.now() - t;
      };
      // The PDF a customer receives: the same generation, then the tagged PDF of that report.
      const pdfOnce = async () => {
        const t = performance.now();
        const { id } = await post('/api/v1/vpat/generate', generate);
        const res = await fetch(`${bench.url}/api/v1/vpat/${id}?format=pdf`, { headers });
        const pdf = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200 || pdf.subarray(0, 5).toString() !== '%PDF-') throw new Error('no PDF');
        return performance.now() - t;
      };
      // Every path warmed (query plans, JIT, axe-core's rule list, PDFKit's fonts), then alternated.
      const [floors, runs, pdfs] = await alternately(ROUNDS, [floorOnce, generateOnce, pdfOnce]);
      if (report.criteria?.length !== 56) throw new Error('unexpected report shape');
      const ms = Math.round(median(runs) * 10) / 10;
      const floorMs = Math.round(median(floors) * 10) / 10;
      const ratio = Math.round((median(runs) / median(floors)) * 100) / 100;
      const pdfMs = Math.round(median(pdfs) * 10) / 10;
      const pdfRatio = Math.round((median(pdfs) / median(runs)) * 100) / 100;
      table([
        {
          measure: `generate WCAG 2.2 AA from ${ISSUES} issues / ${PAGES} pages (median of ${ROUNDS}), ms`,
          value: ms,
        },
        { measure: 'floor: aggregate query (group by rule, kind, wcag, page), ms', value: floorMs },
        { measure: 'ratio ours / floor (target ≤ 2)', value: ratio },
        { measure: `generate + tagged PDF of the same report (median of ${ROUNDS}), ms`, value: pdfMs },
        { measure: 'ratio PDF / JSON report (target < 3)', value: pdfRatio },
      ]);
      return {
        ms,
        floor_ms: floorMs,
        ratio_to_floor: ratio,
        pdf_ms: pdfMs,
        pdf_ratio_to_json: pdfRatio,
        issues: ISSUES,
        pages: PAGES,
      };
    } finally {
      await bench.close();
    }
  },
};

export default suite;
