import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import { chromium } from 'playwright-core';
import type { BenchSuite } from '../env.js';
import { scanBesideFloor } from '../scan/floor.js';
import { measure, type Measured } from '../scan/measure.js';
import { startHeavySite } from '../scan/heavy-site.js';
import { pageHtml, startBenchSite } from '../scan/site.js';
import { measureShards } from '../scan/shards.js';

/**
 * Pages per minute on two loopback page sets, each on the same machine in the same run: the light set (100
 * small pages, `scan/site.ts`) and the heavy set (50 by default, `BENCH_SCAN_HEAVY_PAGES`, of realistic
 * weight, `scan/heavy-site.ts`). On each: `a11y-gate scan` (the bundled CLI, default settings; on the light
 * set also locating its findings), pa11y-ci in its default configuration (one page at a time) and
 * @axe-core/cli (one browser via ChromeDriver), all in Debian's Chromium; each process tree's peak memory
 * (browser included); whether a11y-gate's findings equal axe-core run directly; then the scan beside its
 * floor and the axe-core floor. Targets on both sets: at least 3× pa11y-ci, faster than @axe-core/cli,
 * identical findings, 0.7 of the floor and 0.95 of the axe-core floor.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMEDRIVER = process.env.CHROMEDRIVER_PATH ?? '/usr/bin/chromedriver';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const AXE_MIN = path.join(root, 'node_modules', 'axe-core', 'axe.min.js');

type Finding = string;
const key = (rule: string, target: unknown, impact: string | null | undefined) =>
  `${rule} ${JSON.stringify(target)} ${String(impact)}`;
type Results = Pick<AxeResults, 'violations' | 'incomplete'>;
/** One page's results as a scanner writes them to a file. */
type PageResults = Results & { url: string };
/** What the page's window holds once axe's script is in it. */
interface AxeWindow {
  axe: { run(context: unknown, options: unknown): Promise<AxeResults> };
  document: unknown;
}

function findingsOf(result: Results): Finding[] {
  return [...result.violations, ...result.incomplete]
    .flatMap((r) => r.nodes.map((n) => key(r.id, n.target, n.impact)))
    .sort();
}

/** axe-core run directly in Chromium (its script tag in every frame, the same tags), page by page. */
async function axeDirectly(urls: string[]): Promise<Map<string, Finding[]>> {
  const source = fs.readFileSync(AXE_MIN, 'utf8');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const out = new Map<string, Finding[]>();
  try {
    const page = await browser.newPage({ bypassCSP: true });
    for (const url of urls) {
      await page.goto(url, { waitUntil: 'load' });
      for (const frame of page.frames()) await frame.addScriptTag({ content: source });
      const result = await page.evaluate((values) => {
        const w = globalThis as unknown as AxeWindow;
        return w.axe.run(w.document, { runOnly: { type: 'tag', values } });
      }, TAGS);
      out.set(url, findingsOf(result));
    }
  } finally {
    await browser.close();
  }
  return out;
}

const perMinute = (m: Measured, pages: number) => Math.round((pages / m.seconds) * 60 * 10) / 10;

/** The CLI exits 1 when its gate fails (without a baseline file, every violation fails it): the scan ran. */
const scanned = (m: Measured) => m.code === 0 || m.code === 1;

/** One page set: its name in the figures, its pages, and (the light set) the pages' HTML for locating. */
interface PageSet {
  name: 'light' | 'heavy';
  urls: string[];
  html?: (n: number) => string;
}

/**
 * The figures of one page set: the CLI (and, with the pages' HTML, the CLI locating its findings),
 * pa11y-ci and @axe-core/cli one after another, the findings against axe-core run directly, then the
 * scan beside its floor and the axe-core floor. Returns the figures and the targets it missed.
 */
async function measureSet(set: PageSet, cli: string, dir: string) {
  const pages = set.urls.length;
  const say = (line: string) => console.log(`[${set.name}] ${line}`);
  const urlsFile = path.join(dir, 'urls.txt');
  fs.writeFileSync(urlsFile, set.urls.join('\n') + '\n');
  const gate = await measure(
    process.execPath,
    [cli, 'scan', '--urls-file', urlsFile, '--out', 'gate-out'],
    { CHROME_PATH: CHROMIUM },
    dir,
  );
  if (!scanned(gate)) throw new Error(`a11y-gate scan exited ${gate.code}: ${gate.stderr.slice(-2000)}`);
  // Each tool's time as soon as it is known: the others take long on a busy machine.
  say(`a11y-gate scan: ${gate.seconds.toFixed(1)} s, peak ${gate.peakRssMb} MB`);

  // The same scan locating its findings: the pages are also files of a "repository" (the bytes the
  // server sends), under a URL prefix mapped to their folder.
  let located: { measured: Measured; located: number; findings: number } | null = null;
  if (set.html) {
    fs.mkdirSync(path.join(dir, 'repo', 'site', 'p'), { recursive: true });
    for (let n = 0; n < pages; n++)
      fs.writeFileSync(path.join(dir, 'repo', 'site', 'p', `${n}`), set.html(n));
    const args = ['--out', 'located-out', '--sarif', 'located.sarif', '--source-root', 'repo'];
    const m = await measure(
      process.execPath,
      [cli, 'scan', '--urls-file', urlsFile, ...args, '--source-map', '/p/ => site/p'],
      { CHROME_PATH: CHROMIUM },
      dir,
    );
    if (!scanned(m))
      throw new Error(`a11y-gate scan --source-root exited ${m.code}: ${m.stderr.slice(-2000)}`);
    const sarifRun = (
      JSON.parse(fs.readFileSync(path.join(dir, 'located.sarif'), 'utf8')) as {
        runs: Array<{ properties: { findings: number; located: number } }>;
      }
    ).runs[0].properties;
    located = { measured: m, ...sarifRun };
    say(
      `a11y-gate scan --source-root: ${m.seconds.toFixed(1)} s, ${sarifRun.located} of ${sarifRun.findings} findings located`,
    );
  }

  const pa11yConfig = path.join(dir, 'pa11y-ci.json');
  // Its report in a file: `--json` writes to stdout just before the process exits, and a large report
  // (the heavy pages') reaches a pipe cut short.
  const pa11yFile = path.join(dir, 'pa11y-ci-report.json');
  fs.writeFileSync(
    pa11yConfig,
    JSON.stringify({
      defaults: {
        chromeLaunchConfig: { executablePath: CHROMIUM, args: ['--no-sandbox'] },
        reporters: ['cli', ['json', { fileName: pa11yFile }]],
      },
      urls: set.urls,
    }),
  );
  const pa11y = await measure(
    process.execPath,
    [path.join(root, 'node_modules', 'pa11y-ci', 'bin', 'pa11y-ci.js'), '--config', pa11yConfig],
    {},
    dir,
  );
  const pa11yReport = (fs.existsSync(pa11yFile) ? JSON.parse(fs.readFileSync(pa11yFile, 'utf8')) : {}) as {
    total?: number;
    errors?: number;
  };
  if (pa11yReport.total !== pages)
    throw new Error(`pa11y-ci did not test ${pages} pages: ${pa11y.stderr.slice(-2000)}`);
  say(`pa11y-ci: ${pa11y.seconds.toFixed(1)} s, peak ${pa11y.peakRssMb} MB`);

  const axeCli = await measure(
    process.execPath,
    [
      path.join(root, 'node_modules', '@axe-core', 'cli', 'dist', 'src', 'bin', 'cli.js'),
      ...set.urls,
      '--tags',
      TAGS.join(','),
      '--axe-source',
      AXE_MIN,
      '--chromedriver-path',
      CHROMEDRIVER,
      '--chrome-path',
      CHROMIUM,
      '--chrome-options',
      'no-sandbox,disable-dev-shm-usage',
      '--save',
      'axe-cli.json',
      '--dir',
      path.join(dir, 'axe-cli-out'),
      '--no-reporter',
    ],
    {},
    dir,
  );
  const axeCliFile = path.join(dir, 'axe-cli-out', 'axe-cli.json');
  const axeCliResults = fs.existsSync(axeCliFile)
    ? (JSON.parse(fs.readFileSync(axeCliFile, 'utf8')) as PageResults[])
    : [];
  if (axeCliResults.length !== pages)
    throw new Error(`@axe-core/cli did not test ${pages} pages: ${axeCli.stderr.slice(-2000)}`);
  say(`@axe-core/cli: ${axeCli.seconds.toFixed(1)} s, peak ${axeCli.peakRssMb} MB`);

  // Findings: a11y-gate's raw results against axe-core run directly, page by page.
  const direct = await axeDirectly(set.urls);
  const gateFiles = fs.readdirSync(path.join(dir, 'gate-out')).sort();
  let differing = 0;
  let findings = 0;
  for (const file of gateFiles) {
    const result = JSON.parse(fs.readFileSync(path.join(dir, 'gate-out', file), 'utf8')) as PageResults;
    const mine = findingsOf(result);
    findings += mine.length;
    if (JSON.stringify(mine) !== JSON.stringify(direct.get(result.url))) differing++;
  }
  const axeCliDiffering = axeCliResults.filter(
    (r) => JSON.stringify(findingsOf(r)) !== JSON.stringify(direct.get(r.url)),
  ).length;

  const figures = {
    pages,
    a11y_gate_pages_per_min: perMinute(gate, pages),
    ...(located
      ? {
          a11y_gate_located_pages_per_min: perMinute(located.measured, pages),
          locating_time_ratio: Math.round((located.measured.seconds / gate.seconds) * 100) / 100,
          findings_located: `${located.located} of ${located.findings}`,
        }
      : {}),
    pa11y_ci_pages_per_min: perMinute(pa11y, pages),
    axe_cli_pages_per_min: perMinute(axeCli, pages),
    ratio_to_pa11y_ci: Math.round((pa11y.seconds / gate.seconds) * 100) / 100,
    ratio_to_axe_cli: Math.round((axeCli.seconds / gate.seconds) * 100) / 100,
    a11y_gate_peak_rss_mb: gate.peakRssMb,
    pa11y_ci_peak_rss_mb: pa11y.peakRssMb,
    axe_cli_peak_rss_mb: axeCli.peakRssMb,
    a11y_gate_concurrency: os.availableParallelism(),
    findings_a11y_gate: findings,
    pages_with_findings_unlike_axe_directly: differing,
    axe_cli_pages_unlike_axe_directly: axeCliDiffering,
    seconds: {
      a11y_gate: gate.seconds,
      ...(located ? { a11y_gate_located: located.measured.seconds } : {}),
      pa11y_ci: pa11y.seconds,
      axe_cli: axeCli.seconds,
    },
  };
  const missed = [
    figures.ratio_to_pa11y_ci >= 3 ? null : 'under 3× pa11y-ci',
    figures.ratio_to_axe_cli > 1 ? null : 'not faster than @axe-core/cli',
    differing === 0 && gateFiles.length === pages ? null : 'findings differ from axe-core run directly',
    !located || (figures.locating_time_ratio ?? 0) <= 1.1 ? null : 'locating adds more than 10 %',
  ].filter((m): m is string => m !== null);
  console.table(
    [
      ['a11y-gate scan', figures.a11y_gate_pages_per_min, gate],
      ['pa11y-ci (default)', figures.pa11y_ci_pages_per_min, pa11y],
      ['@axe-core/cli', figures.axe_cli_pages_per_min, axeCli],
    ].map(([tool, perMin, m]) => ({
      set: set.name,
      tool: tool as string,
      pages_per_min: perMin as number,
      seconds: (m as Measured).seconds.toFixed(1),
      peak_rss_mb: (m as Measured).peakRssMb,
    })),
  );
  const floor = await scanBesideFloor({ cli, urlsFile, pages, chromium: CHROMIUM, dir, label: set.name });
  if (floor.scan_ratio_to_floor < 0.7) missed.push('under 0.7 of the floor');
  // Judged round by round: each round's scan beside that round's axe-core floor, so the machine's drift
  // between rounds (larger than the scan's own cost) does not decide it.
  if (floor.scan_ratio_to_axe_floor_median_of_rounds < 0.95) missed.push('under 0.95 of the axe-core floor');
  return { figures: { ...figures, ...floor }, missed: missed.map((m) => `${set.name} pages: ${m}`) };
}

let measured: Record<string, unknown> | undefined;

const suite: BenchSuite = {
  name: 'scan',
  async run(target) {
    // The scan does not touch the database: measured once, the figures repeated for the other target.
    if (measured) return { ...measured, note: `measured once (${target.kind} not used by the scan)` };
    // The build measured: the committed bundle, or another build of the CLI (its dist/cli/index.js).
    const cli = process.env.BENCH_SCAN_CLI ?? path.join(root, 'dist', 'cli', 'index.js');
    const light = await startBenchSite();
    const heavy = await startHeavySite(Number(process.env.BENCH_SCAN_HEAVY_PAGES ?? 50));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-bench-scan-'));
    try {
      const lightDir = path.join(dir, 'light');
      const heavyDir = path.join(dir, 'heavy');
      fs.mkdirSync(lightDir);
      fs.mkdirSync(heavyDir);
      // BENCH_SCAN_SETS=heavy (or light) measures one set alone.
      const sets = (process.env.BENCH_SCAN_SETS ?? 'light,heavy').split(',');
      const skipped = { figures: {}, missed: [] as string[] };
      const l = sets.includes('light')
        ? await measureSet({ name: 'light', urls: light.urls, html: pageHtml }, cli, lightDir)
        : skipped;
      console.log(
        `heavy pages: ${heavy.urls.length}, ${Math.round(heavy.bytesPerPage / 1024)} kB of resources a page`,
      );
      const h = sets.includes('heavy')
        ? await measureSet({ name: 'heavy', urls: heavy.urls }, cli, heavyDir)
        : undefined;
      const missed = [...l.missed, ...(h?.missed ?? [])];
      // 1,000 pages as 1, 2 and 4 shards into one scan, and what sharding costs the ingest.
      const shards =
        process.env.BENCH_SCAN_SHARDS === '0'
          ? 'left out (BENCH_SCAN_SHARDS=0)'
          : await measureShards(target, { cli, chromium: CHROMIUM });
      measured = {
        ...l.figures,
        ...(h
          ? {
              heavy: { ...h.figures, resource_kb_per_page: Math.round(heavy.bytesPerPage / 1024) },
              heavy_scan_ratio_to_floor: h.figures.scan_ratio_to_floor,
              heavy_scan_axe_floor_ratio_to_floor: h.figures.scan_axe_floor_ratio_to_floor,
              heavy_scan_ratio_to_axe_floor: h.figures.scan_ratio_to_axe_floor,
              heavy_scan_ratio_to_axe_floor_median_of_rounds:
                h.figures.scan_ratio_to_axe_floor_median_of_rounds,
              heavy_ratio_to_pa11y_ci: h.figures.ratio_to_pa11y_ci,
              heavy_ratio_to_axe_cli: h.figures.ratio_to_axe_cli,
            }
          : {}),
        shards,
        scan_targets_missed: missed.length,
        missed,
      };
      return measured;
    } finally {
      await Promise.all([light.close(), heavy.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
