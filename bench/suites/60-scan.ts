import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AxeResults } from 'axe-core';
import { chromium } from 'playwright-core';
import type { BenchSuite } from '../env.js';
import { scanBesideFloor } from '../scan/floor.js';
import { measure, type Measured } from '../scan/measure.js';
import { pageHtml, startBenchSite } from '../scan/site.js';
import { measureShards } from '../scan/shards.js';

/**
 * Pages per minute for the same 100 loopback pages, on the same machine in the same run: `a11y-gate scan`
 * (the bundled CLI, default settings), pa11y-ci in its default configuration (one page at a time) and
 * @axe-core/cli (one browser via ChromeDriver), all in Debian's Chromium. Also the peak memory of each
 * process tree (browser included), and whether a11y-gate's findings equal axe-core run directly.
 * Targets: at least 3× pa11y-ci, faster than @axe-core/cli, identical findings.
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

let measured: Record<string, unknown> | undefined;

const suite: BenchSuite = {
  name: 'scan',
  async run(target) {
    // The scan does not touch the database: measured once, the figures repeated for the other target.
    if (measured) return { ...measured, note: `measured once (${target.kind} not used by the scan)` };
    const site = await startBenchSite();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-bench-scan-'));
    try {
      const urlsFile = path.join(dir, 'urls.txt');
      fs.writeFileSync(urlsFile, site.urls.join('\n') + '\n');
      const cli = path.join(root, 'dist', 'cli', 'index.js');
      const gate = await measure(
        process.execPath,
        [cli, 'scan', '--urls-file', urlsFile, '--out', 'gate-out'],
        { CHROME_PATH: CHROMIUM },
        dir,
      );
      if (gate.code !== 0) throw new Error(`a11y-gate scan exited ${gate.code}: ${gate.stderr.slice(-2000)}`);
      // Each tool's time as soon as it is known: the others take long on a busy machine.
      console.log(`a11y-gate scan: ${gate.seconds.toFixed(1)} s, peak ${gate.peakRssMb} MB`);

      // The same scan locating its findings: the pages are also files of a "repository" (the bytes the
      // server sends), under a URL prefix mapped to their folder.
      fs.mkdirSync(path.join(dir, 'repo', 'site', 'p'), { recursive: true });
      for (let n = 0; n < 100; n++)
        fs.writeFileSync(path.join(dir, 'repo', 'site', 'p', `${n}`), pageHtml(n));
      const located = await measure(
        process.execPath,
        [
          cli,
          'scan',
          '--urls-file',
          urlsFile,
          '--out',
          'located-out',
          '--sarif',
          'located.sarif',
          '--source-root',
          'repo',
          '--source-map',
          '/p/ => site/p',
        ],
        { CHROME_PATH: CHROMIUM },
        dir,
      );
      if (located.code !== 0)
        throw new Error(
          `a11y-gate scan --source-root exited ${located.code}: ${located.stderr.slice(-2000)}`,
        );
      const sarifRun = (
        JSON.parse(fs.readFileSync(path.join(dir, 'located.sarif'), 'utf8')) as {
          runs: Array<{ properties: { findings: number; located: number } }>;
        }
      ).runs[0].properties;
      console.log(
        `a11y-gate scan --source-root: ${located.seconds.toFixed(1)} s, ${sarifRun.located} of ${sarifRun.findings} findings located`,
      );

      const pa11yConfig = path.join(dir, 'pa11y-ci.json');
      fs.writeFileSync(
        pa11yConfig,
        JSON.stringify({
          defaults: { chromeLaunchConfig: { executablePath: CHROMIUM, args: ['--no-sandbox'] } },
          urls: site.urls,
        }),
      );
      const pa11y = await measure(
        process.execPath,
        [
          path.join(root, 'node_modules', 'pa11y-ci', 'bin', 'pa11y-ci.js'),
          '--config',
          pa11yConfig,
          '--json',
        ],
        {},
        dir,
      );
      const pa11yReport = JSON.parse(pa11y.stdout || '{}') as { total?: number; errors?: number };
      if (pa11yReport.total !== 100)
        throw new Error(`pa11y-ci did not test 100 pages: ${pa11y.stderr.slice(-2000)}`);
      console.log(`pa11y-ci: ${pa11y.seconds.toFixed(1)} s, peak ${pa11y.peakRssMb} MB`);

      const axeCli = await measure(
        process.execPath,
        [
          path.join(root, 'node_modules', '@axe-core', 'cli', 'dist', 'src', 'bin', 'cli.js'),
          ...site.urls,
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
      if (axeCliResults.length !== 100)
        throw new Error(`@axe-core/cli did not test 100 pages: ${axeCli.stderr.slice(-2000)}`);
      console.log(`@axe-core/cli: ${axeCli.seconds.toFixed(1)} s, peak ${axeCli.peakRssMb} MB`);

      // Findings: a11y-gate's raw results against axe-core run directly, page by page.
      const direct = await axeDirectly(site.urls);
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
        pages: 100,
        a11y_gate_pages_per_min: perMinute(gate, 100),
        a11y_gate_located_pages_per_min: perMinute(located, 100),
        locating_time_ratio: Math.round((located.seconds / gate.seconds) * 100) / 100,
        findings_located: `${sarifRun.located} of ${sarifRun.findings}`,
        pa11y_ci_pages_per_min: perMinute(pa11y, 100),
        axe_cli_pages_per_min: perMinute(axeCli, 100),
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
          a11y_gate_located: located.seconds,
          pa11y_ci: pa11y.seconds,
          axe_cli: axeCli.seconds,
        },
      };
      const missed = [
        figures.ratio_to_pa11y_ci >= 3 ? null : 'under 3× pa11y-ci',
        figures.ratio_to_axe_cli > 1 ? null : 'not faster than @axe-core/cli',
        differing === 0 && gateFiles.length === 100 ? null : 'findings differ from axe-core run directly',
        figures.locating_time_ratio <= 1.1 ? null : 'locating adds more than 10 %',
      ].filter(Boolean);
      console.table([
        {
          tool: 'a11y-gate scan',
          pages_per_min: figures.a11y_gate_pages_per_min,
          seconds: gate.seconds.toFixed(1),
          peak_rss_mb: gate.peakRssMb,
        },
        {
          tool: 'pa11y-ci (default)',
          pages_per_min: figures.pa11y_ci_pages_per_min,
          seconds: pa11y.seconds.toFixed(1),
          peak_rss_mb: pa11y.peakRssMb,
        },
        {
          tool: '@axe-core/cli',
          pages_per_min: figures.axe_cli_pages_per_min,
          seconds: axeCli.seconds.toFixed(1),
          peak_rss_mb: axeCli.peakRssMb,
        },
      ]);
      const floor = await scanBesideFloor({ cli, urlsFile, pages: 100, chromium: CHROMIUM, dir });
      if (floor.scan_ratio_to_floor < 0.7) missed.push('under 0.7 of the floor');
      // 1,000 pages as 1, 2 and 4 shards into one scan, and what sharding costs the ingest.
      const shards = await measureShards(target, { cli, chromium: CHROMIUM });
      measured = { ...figures, ...floor, shards, scan_targets_missed: missed.length, missed };
      return measured;
    } finally {
      await site.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
