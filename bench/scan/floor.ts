import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_AXE_TAGS } from '../../scanner/options.js';
import { measure, type Measured } from './measure.js';

/**
 * The scanner beside its floor: the same pages loaded by the same browser (the same launch arguments),
 * with the same concurrency (one context and one reused tab per worker, as the scanner has) and no axe-core
 * run: what the browser alone costs. Beside both, the axe-core floor: the same process that also loads
 * axe-core into each page and runs it with the scanner's tags, keeping nothing of its result: the least
 * any scanner that runs axe-core's rules can cost, so the share of the scan that is the scanner's own is
 * seen apart from axe-core's. All are separate processes timed from start to exit, so all pay Node's start
 * and the browser's launch. Rounds alternate (scan, floor, axe-core floor, and an earlier build of the CLI
 * when one is named), each starting one step later than the one before, so a machine that gets busier slows
 * all alike and none always runs right after the same one; the medians are reported, and each round's own
 * scan / axe-core floor ratio with their median, the figure the target is judged by.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The floor's process: playwright-core from the repository, the scanner's browser arguments. With `axe`,
 * each tab defines axe-core's script in every document as a function (as the scanner does, the cheapest way
 * found), and each page loads it and runs it in one call, its result left in the page.
 */
export function floorScript(): string {
  const playwright = JSON.stringify(path.join(root, 'node_modules', 'playwright-core', 'index.mjs'));
  const axeSource = JSON.stringify(path.join(root, 'node_modules', 'axe-core', 'axe.min.js'));
  return `import { chromium } from ${playwright};
import fs from 'node:fs';
const [urlsFile, concurrency, executablePath, axeTags] = process.argv.slice(2);
const tags = axeTags ? axeTags.split(',') : null;
const loader = tags
  ? 'Object.defineProperty(globalThis, "__floorAxe", { value: function () {\\n' +
    fs.readFileSync(${axeSource}, 'utf8') + '\\n} });'
  : null;
const urls = fs.readFileSync(urlsFile, 'utf8').split('\\n').filter(Boolean);
const args = ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--disable-component-update'];
const browser = await chromium.launch({ executablePath, args, headless: true, chromiumSandbox: false });
let next = 0;
let loaded = 0;
await Promise.all(Array.from({ length: Math.min(Number(concurrency), urls.length) }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  if (loader) await page.addInitScript(loader);
  // The cheapest way to run axe-core the scanner uses (scanner/cdp.ts): the tab's own DevTools session, no
  // Playwright helper script and no isolated world per document, so the floor pays nothing the scanner skips.
  const cdp = await context.newCDPSession(page);
  while (next < urls.length) {
    const url = urls[next++];
    const response = await page.goto(url, { waitUntil: 'load', timeout: 30000 });
    // Only a count crosses back, to show axe-core ran.
    let ran = true;
    if (tags) {
      const options = JSON.stringify({ runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] });
      const answer = await cdp.send('Runtime.evaluate', {
        expression: '(async () => { globalThis.__floorAxe(); return (await globalThis.axe.run(document, ' + options + ')).violations.length; })()',
        awaitPromise: true,
        returnByValue: true,
      });
      ran = !answer.exceptionDetails && typeof answer.result.value === 'number';
    }
    if (ran && response && response.status() < 400) loaded++;
  }
}));
await browser.close();
if (loaded !== urls.length) { console.error('loaded ' + loaded + ' of ' + urls.length); process.exit(1); }
`;
}

export interface FloorFigures {
  scan_floor_concurrency: number;
  scan_floor_rounds: number;
  scan_floor_pages_per_min: number;
  scan_full_pages_per_min: number;
  /** The full scan's speed as a share of the floor's: 1 would be axe-core for free. */
  scan_ratio_to_floor: number;
  scan_axe_floor_pages_per_min: number;
  /** axe-core's own run as a share of the floor: the best ratio any scanner running axe-core can reach. */
  scan_axe_floor_ratio_to_floor: number;
  /** The full scan's speed as a share of the axe-core floor's: 1 would be a scanner costing nothing of its own. */
  scan_ratio_to_axe_floor: number;
  /**
   * Each round's own ratio (its axe-core floor over its scan), and their median: the machine's speed drifts
   * between rounds by more than the scan's own cost, and a round compares two runs made minutes apart.
   */
  scan_ratio_to_axe_floor_by_round: number[];
  scan_ratio_to_axe_floor_median_of_rounds: number;
  scan_before_pages_per_min?: number;
  scan_before_ratio_to_floor?: number;
  scan_pictures_pages_per_min?: number;
  /** The scan with element pictures and the HTML report (`--html`) as a share of the axe-core floor. */
  scan_pictures_ratio_to_axe_floor?: number;
  scan_floor_seconds: {
    floor: number[];
    axe_floor: number[];
    scan: number[];
    before?: number[];
    pictures?: number[];
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The CLI exits 1 when its gate fails (without a baseline file, every violation fails it): the scan ran. */
async function run(label: string, command: string[], env: Record<string, string>, dir: string) {
  const m: Measured = await measure(process.execPath, command, env, dir);
  const ran = m.code === 0 || (m.code === 1 && label.startsWith('scan'));
  if (!ran) throw new Error(`${label} exited ${m.code}: ${m.stderr.slice(-2000)}`);
  return m.seconds;
}

/**
 * `cli` scans `urlsFile` (default settings, so one worker per CPU) beside the floor, `rounds` times each;
 * `BENCH_SCAN_BEFORE_CLI` names an earlier build of the CLI (its `dist/cli/index.js`) to measure in the
 * same rounds, so a change's before and after come from the same run.
 */
export async function scanBesideFloor(o: {
  cli: string;
  urlsFile: string;
  pages: number;
  chromium: string;
  dir: string;
  rounds?: number;
  /** The page set's name in the progress lines. */
  label?: string;
}): Promise<FloorFigures> {
  const rounds = o.rounds ?? Number(process.env.BENCH_SCAN_FLOOR_ROUNDS ?? 5);
  const concurrency = os.availableParallelism();
  const script = path.join(o.dir, 'floor.mjs');
  fs.writeFileSync(script, floorScript());
  const before = process.env.BENCH_SCAN_BEFORE_CLI;
  const env = { CHROME_PATH: o.chromium };
  const seconds = {
    floor: [] as number[],
    axe: [] as number[],
    scan: [] as number[],
    before: [] as number[],
    pictures: [] as number[],
  };
  // The scan above takes no element pictures (nothing would show them). With BENCH_SCAN_PICTURES=1 the same
  // scan writing the HTML report (`--html`), which embeds them, is measured in the same rounds too: what the
  // pictures, which no floor takes, cost.
  const pictures = process.env.BENCH_SCAN_PICTURES === '1';
  const floorArgs = [script, o.urlsFile, String(concurrency), o.chromium];
  const byRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    /** A run of a CLI build (`cli`) on the page set, its `--out` kept apart per round. */
    const scanStep = (label: string, cli: string, name: string, into: number[], extra: string[] = []) => {
      const out = ['--out', path.join(o.dir, `${name}-${r}`)];
      const args = [cli, 'scan', '--urls-file', o.urlsFile, ...extra, ...out];
      return async () => void into.push(await run(label, args, env, o.dir));
    };
    const steps: Array<() => Promise<void>> = [
      scanStep('scan', o.cli, 'full', seconds.scan),
      async () => void seconds.floor.push(await run('floor', floorArgs, {}, o.dir)),
      async () => {
        const args = [...floorArgs, DEFAULT_AXE_TAGS.join(',')];
        seconds.axe.push(await run('axe-core floor', args, {}, o.dir));
      },
    ];
    if (before) steps.push(scanStep('scan (before)', before, 'before', seconds.before));
    if (pictures) {
      const report = ['--html', path.join(o.dir, `report-${r}.html`)];
      steps.push(scanStep('scan (pictures)', o.cli, 'pictures', seconds.pictures, report));
    }
    // Each round starts one step later: a process that runs right after another (whose browser may still
    // be closing) is not always the same one.
    for (let k = 0; k < steps.length; k++) await steps[(r + k) % steps.length]();
    byRound.push(round(seconds.axe[r] / seconds.scan[r], 2));
    console.log(
      `${o.label ? `[${o.label}] ` : ''}scan beside its floor, round ${r + 1}: scan ${seconds.scan[r].toFixed(1)} s, floor ` +
        `${seconds.floor[r].toFixed(1)} s, axe-core floor ${seconds.axe[r].toFixed(1)} s${before ? `, before ${seconds.before[r].toFixed(1)} s` : ''}` +
        `${pictures ? `, with pictures and the HTML report ${seconds.pictures[r].toFixed(1)} s` : ''}` +
        ` (scan / axe-core floor ${byRound[r].toFixed(2)})`,
    );
  }
  const perMin = (s: number) => round((o.pages / s) * 60);
  const floor = median(seconds.floor);
  const scan = median(seconds.scan);
  const axeFloor = median(seconds.axe);
  return {
    scan_floor_concurrency: concurrency,
    scan_floor_rounds: rounds,
    scan_floor_pages_per_min: perMin(floor),
    scan_full_pages_per_min: perMin(scan),
    scan_ratio_to_floor: round(floor / scan, 2),
    scan_axe_floor_pages_per_min: perMin(axeFloor),
    scan_axe_floor_ratio_to_floor: round(floor / axeFloor, 2),
    scan_ratio_to_axe_floor: round(axeFloor / scan, 2),
    scan_ratio_to_axe_floor_by_round: byRound,
    scan_ratio_to_axe_floor_median_of_rounds: median(byRound),
    ...(before
      ? {
          scan_before_pages_per_min: perMin(median(seconds.before)),
          scan_before_ratio_to_floor: round(floor / median(seconds.before), 2),
        }
      : {}),
    ...(pictures
      ? {
          scan_pictures_pages_per_min: perMin(median(seconds.pictures)),
          scan_pictures_ratio_to_axe_floor: round(axeFloor / median(seconds.pictures), 2),
        }
      : {}),
    scan_floor_seconds: {
      floor: seconds.floor.map((s) => round(s, 2)),
      axe_floor: seconds.axe.map((s) => round(s, 2)),
      scan: seconds.scan.map((s) => round(s, 2)),
      ...(before ? { before: seconds.before.map((s) => round(s, 2)) } : {}),
      ...(pictures ? { pictures: seconds.pictures.map((s) => round(s, 2)) } : {}),
    },
  };
}
