import { assessedCriteria } from '../../api/domain/vpat/assessments/verdict.js';
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
 * Assessments: importing a WCAG-EM Report Tool evaluation of 50 pages × 55 criteria (one assertion per
 * criterion and page, 2,750 results: `POST /api/v1/assessments/import`), and generating the report of a
 * site whose assessment it is, each against the floor measured in the same run: generating the report
 * of the same scan for a site without an assessment. Targets: each within 2× of the floor.
 */

const ISSUES = Number(process.env.BENCH_VPAT_ISSUES ?? 50_000);
const PAGES = 1_000;
const SAMPLE = 50;
const ROUNDS = Number(process.env.BENCH_VPAT_ROUNDS ?? 7);
const RULES: Array<[string, string[]]> = [
  ['color-contrast', ['1.4.3']],
  ['image-alt', ['1.1.1']],
  ['label', ['4.1.2']],
  ['link-name', ['2.4.4', '4.1.2']],
  ['list', ['1.3.1']],
];
const OUTCOMES = ['passed', 'failed', 'cantTell', 'inapplicable', 'untested'];

function scanBody(siteId: string, random: () => number): string {
  const perPage = Math.ceil(ISSUES / PAGES);
  const pages = Array.from({ length: PAGES }, (_, p) => ({
    url: `https://shop.example/p/${p}`,
    issues: Array.from({ length: perPage }, (_, i) => {
      const [rule, wcag] = RULES[Math.floor(random() * RULES.length)];
      return { rule, impact: 'serious', selector: `#el-${p}-${i}`, wcag };
    }),
  }));
  return JSON.stringify({
    siteId,
    url: 'https://shop.example',
    sha: 'c0ffee'.padEnd(40, '0'),
    branch: 'main',
    rules_run: [...RULES.map(([r]) => r), 'document-title'],
    pages,
  });
}

/** An evaluation as the WCAG-EM Report Tool saves it: the sample, and one assertion per criterion and page. */
function evaluation(criteria: string[], random: () => number): string {
  const pages = Array.from({ length: SAMPLE }, (_, i) => ({
    id: `_:page_${i}`,
    type: ['TestSubject', 'WebPage'],
    title: `Page ${i}`,
    description: `https://shop.example/p/${i * 7}`,
  }));
  return JSON.stringify({
    '@context': { wcagem: 'http://www.w3.org/TR/WCAG-EM/#', auditSample: 'wcagem:step4' },
    type: 'Evaluation',
    defineScope: { id: '_:defineScope', conformanceTarget: 'AA', wcagVersion: '2.2' },
    selectSample: { id: '_:selectSample', structuredSample: pages, randomSample: [] },
    auditSample: criteria.map((c) => ({
      type: 'Assertion',
      test: { id: c },
      subject: { id: '_:website' },
      result: { outcome: { id: 'earl:untested' }, description: '' },
      hasPart: pages.map((p) => ({
        type: 'Assertion',
        assertedBy: { title: 'Bench Tester' },
        subject: { id: p.id },
        result: { outcome: { id: `earl:${OUTCOMES[Math.floor(random() * 4)]}` }, description: 'checked' },
      })),
    })),
    reportFindings: { title: 'Bench evaluation', evaluator: 'Bench Tester' },
  });
}

const round = (n: number) => Math.round(n * 100) / 100;

const suite: BenchSuite = {
  name: 'assessment',
  async run(target: BenchTarget) {
    const bench = await startBenchServer(target);
    const post = (path: string, body: string) =>
      poster(bench)<{ results?: unknown[]; assessment?: unknown }>(path, body);
    try {
      const random = seeded(35);
      const plain = await post('/api/v1/scans', scanBody('plain', random));
      const assessed = await post('/api/v1/scans', scanBody('assessed', random));
      const criteria = assessedCriteria('AA').map((c) => c.id);
      const file = evaluation(criteria, random);
      const generate = (siteId: string, scanId: string) =>
        JSON.stringify({ siteId, scan_id: scanId, product: { name: 'Shop', version: '1' } });
      const time = async (f: () => Promise<void>) => {
        const t = performance.now();
        await f();
        return performance.now() - t;
      };
      const floorOnce = () =>
        time(async () => void (await post('/api/v1/vpat/generate', generate('plain', plain.id))));
      const importOnce = () =>
        time(async () => {
          const a = await post('/api/v1/assessments/import?siteId=assessed', file);
          if (a.results?.length !== SAMPLE * criteria.length) throw new Error('not every result imported');
        });
      const reportOnce = () =>
        time(async () => {
          const r = await post('/api/v1/vpat/generate', generate('assessed', assessed.id));
          if (!r.assessment) throw new Error('the report did not use the assessment');
        });
      const [floors, imports, reports] = await alternately(ROUNDS, [floorOnce, importOnce, reportOnce]);
      const floorMs = round(median(floors));
      const importMs = round(median(imports));
      const reportMs = round(median(reports));
      const importRatio = round(importMs / floorMs);
      const reportRatio = round(reportMs / floorMs);
      table([
        {
          measure: `import ${SAMPLE} pages × ${criteria.length} criteria (median of ${ROUNDS}), ms`,
          value: importMs,
        },
        { measure: 'generate the report with that assessment, ms', value: reportMs },
        { measure: `floor: generate the report of the same scan without an assessment, ms`, value: floorMs },
        { measure: 'ratio import / floor (target ≤ 2)', value: importRatio },
        { measure: 'ratio report with assessment / floor (target ≤ 2)', value: reportRatio },
      ]);
      return {
        import_ms: importMs,
        report_ms: reportMs,
        floor_ms: floorMs,
        import_ratio: importRatio,
        report_ratio: reportRatio,
      };
    } finally {
      await bench.close();
    }
  },
};

export default suite;
