import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser } from 'playwright-core';
import { forSubmission } from '../../../scanner/axe.js';
import { defaultScanOptions } from '../../../scanner/options.js';
import { scan } from '../../../scanner/scan.js';
import { submittedPages } from '../../../scanner/scan-body.js';
import type { DeployEvent } from '../../helpers/api-types.js';
import { CHROMIUM_PATH } from '../../helpers/axe-browser.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { chromium as chromiumPart, describeWith } from '../../helpers/requirements.js';

// The same loopback pages scanned with two axe-core versions installed side by side: the pinned one (the
// scanner's) and 4.10 (the `axe-core-4-10` alias), in Debian's Chromium. The pages hold what both
// versions report (missing alt text, a select without a name, an image link without a name) and what
// only one does: 4.14 added `aria-tab-name` and made `label-content-name-mismatch` a WCAG rule (it was
// experimental); 4.10 still ran `landmark-complementary-is-top-level`, since deprecated.

const require = createRequire(import.meta.url);
const OLD_AXE = fs.readFileSync(require.resolve('axe-core-4-10/axe.min.js'), 'utf8');
const TAGS = defaultScanOptions().axeTags;

const doc = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>` +
  `<main><h1>${title}</h1>${body}</main></body></html>`;
const PAGES: Record<string, string> = {
  '/': doc(
    'Home',
    '<img src="/hero.png"><div role="tablist"><button role="tab" aria-selected="true">One</button>' +
      '<div role="tab" tabindex="-1"></div></div><div role="tabpanel">Panel</div>' +
      '<aside><aside><p>Related</p></aside></aside>',
  ),
  '/cart': doc(
    'Cart',
    '<button aria-label="Open menu">Close</button><select><option>1</option></select>' +
      '<a href="/"><img src="/logo.png"></a>',
  ),
};

let server: Server;
let base = '';
let browser: Browser;
beforeAll(async () => {
  server = createServer((req, res) => {
    const html = PAGES[req.url ?? ''];
    res.writeHead(html ? 200 : 404, { 'content-type': html ? 'text/html; charset=utf-8' : 'image/png' });
    res.end(html ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await browser?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** axe-core 4.10 run on each page in Chromium, as an older scanner would have submitted it. */
async function scanWithOldAxe(): Promise<{ pages: unknown[]; results: AxeResults[] }> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  const results: AxeResults[] = [];
  for (const path of Object.keys(PAGES)) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(base + path, { waitUntil: 'load' });
    await page.evaluate(OLD_AXE);
    results.push(
      await page.evaluate(
        (values) =>
          (
            globalThis as unknown as {
              axe: { run(c: unknown, o: unknown): Promise<AxeResults> };
              document: unknown;
            }
          ).axe.run((globalThis as unknown as { document: unknown }).document, {
            runOnly: { type: 'tag', values },
            resultTypes: ['violations', 'incomplete'],
          }),
        TAGS,
      ),
    );
    await context.close();
  }
  return { pages: results.map((r) => ({ url: r.url, axe: forSubmission(r) })), results };
}

/** The scanner itself (the pinned axe-core) on the same pages. */
async function scanWithPinnedAxe(): Promise<{ pages: unknown[]; results: AxeResults[] }> {
  const run = await scan({
    ...defaultScanOptions(),
    chromePath: CHROMIUM_PATH,
    urls: Object.keys(PAGES).map((p) => base + p),
  });
  return { pages: submittedPages(run), results: run.pages.flatMap((p) => (p.ok ? [p.axe] : [])) };
}

/** Violations as "rule page": what each engine reported, read from its raw results. */
const violations = (results: AxeResults[]) =>
  new Set(results.flatMap((r) => r.violations.map((v) => `${v.id} ${new URL(r.url).pathname}`)));

describeWith(chromiumPart, 'engine upgrades, two axe-core versions in Chromium', () => {
  let old: Awaited<ReturnType<typeof scanWithOldAxe>>;
  let pinned: Awaited<ReturnType<typeof scanWithPinnedAxe>>;
  beforeAll(async () => {
    old = await scanWithOldAxe();
    pinned = await scanWithPinnedAxe();
  }, 120_000);

  test('the two versions really report differently on these pages', () => {
    expect(old.results[0].testEngine.version).toMatch(/^4\.10\./);
    const pinnedVersion = (require('axe-core/package.json') as { version: string }).version;
    expect(pinned.results[0].testEngine.version).toBe(pinnedVersion);
    const [a, b] = [violations(old.results), violations(pinned.results)];
    expect([...b].filter((x) => !a.has(x)).sort()).toEqual([
      'aria-tab-name /',
      'label-content-name-mismatch /cart',
    ]);
    expect([...a].filter((x) => !b.has(x)).sort()).toEqual(['landmark-complementary-is-top-level /']);
    // And much alike: what both report is compared as usual.
    expect([...a].filter((x) => b.has(x)).length).toBeGreaterThanOrEqual(3);
  });

  describe.each(dbKinds)('the gate (%s)', (db) => {
    const h = useHarness({ db, org: 'engines' });
    let n = 0;
    const sha = () => (++n).toString(16).padStart(40, '0');
    async function submit(siteId: string, branch: string, pages: unknown[]): Promise<string> {
      const s = sha();
      const r = await h.request('POST', '/api/v1/scans', {
        key: h.key,
        body: { siteId, url: base, sha: s, branch, pages },
      });
      expect(r.status).toBe(201);
      return s;
    }
    const trigger = async (siteId: string, s: string) => {
      const r = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId, sha: s },
      });
      expect(r.status).toBe(201);
      return r.body;
    };
    const setGate = async (siteId: string, gate: Record<string, unknown>) => {
      const r = await h.request('PATCH', `/api/v1/sites/${siteId}`, { key: h.key, body: { gate } });
      expect(r.status).toBe(200);
    };

    test('an upgrade passes with the differences labelled and counted apart; `engine_upgrade: fail` fails it', async () => {
      await trigger('shop', await submit('shop', 'main', old.pages));
      await setGate('shop', { fail_on_serious: true });
      const head = await submit('shop', 'feature/upgrade', pinned.pages);
      const e = await trigger('shop', head);
      expect(e.passed).toBe(true);
      expect(e.reasons).toEqual([]);
      expect(e.settings).toMatchObject({ fail_on_serious: true, engine_upgrade: 'warn' });
      expect(e.engine_change).toEqual({
        head: { name: 'axe-core', version: pinned.results[0].testEngine.version },
        baseline: { name: 'axe-core', version: old.results[0].testEngine.version },
        engine_upgrade: 'warn',
        appeared: 2,
        disappeared: 1,
      });
      expect(e.counts).toMatchObject({ new: 0, fixed: 0, engine_changed: 3 });
      // Per impact, as axe rates the rules: aria-tab-name and label-content-name-mismatch are serious,
      // landmark-complementary-is-top-level (only in the baseline's scan) moderate.
      expect(e.counts.by_impact).toMatchObject({
        critical: { engine_changed: 0 },
        serious: { engine_changed: 2 },
        moderate: { engine_changed: 1 },
        minor: { engine_changed: 0 },
      });
      expect(e.counts.existing).toBeGreaterThan(0);
      expect(e.new_issues).toEqual([]);
      expect(e.engine_changed_issues.map((i) => `${i.rule} ${new URL(i.page_url).pathname}`).sort()).toEqual([
        'aria-tab-name /',
        'label-content-name-mismatch /cart',
      ]);
      expect(e.engine_changed_issues.every((i) => i.engine_change === true)).toBe(true);
      expect(e.baseline?.reason).toContain('axe-core 4.10.3');
      // What GET answers is what the trigger answered.
      const read = await h.request<DeployEvent>('GET', `/api/v1/deploy/${e.id}`, { key: h.key });
      expect(read.body.engine_change).toEqual(e.engine_change);
      expect(read.body.engine_changed_issues).toEqual(e.engine_changed_issues);

      await setGate('shop', { fail_on_serious: true, engine_upgrade: 'fail' });
      const judged = await trigger('shop', head);
      expect(judged.passed).toBe(false);
      expect(judged.reasons.map((r) => r.code)).toEqual(['serious_issues']);
      expect(judged.counts).toMatchObject({ new: 2, fixed: 1, engine_changed: 3 });
      expect(judged.counts.by_impact.serious).toMatchObject({ new: 2, engine_changed: 2 });
      expect(judged.counts.by_impact.moderate).toMatchObject({ fixed: 1, engine_changed: 1 });
      expect(judged.engine_change?.engine_upgrade).toBe('fail');
      expect(judged.new_issues.map((i) => [i.rule, i.engine_change]).sort()).toEqual([
        ['aria-tab-name', true],
        ['label-content-name-mismatch', true],
      ]);
    });

    test('the baseline is the latest base-branch scan made with the same engine; the next one with the new engine becomes the baseline', async () => {
      const first = await submit('site2', 'main', old.pages);
      await trigger('site2', first);
      await setGate('site2', { fail_on_serious: true, engine_upgrade: 'fail' });
      const upgraded = await submit('site2', 'main', pinned.pages);
      // A branch still on the old engine is compared with the base branch's scan made with it.
      const stale = await trigger('site2', await submit('site2', 'feature/old', old.pages));
      expect(stale).toMatchObject({ passed: true, engine_change: null, engine_changed_issues: [] });
      expect(stale.baseline).toMatchObject({ sha: first, strategy: 'base_branch' });
      expect(stale.baseline?.reason).toContain('same engine');
      expect(stale.counts).toMatchObject({ new: 0, fixed: 0, engine_changed: 0 });
      // No engine change: the impacts carry no engine_changed, as before.
      expect(stale.counts.by_impact.serious).not.toHaveProperty('engine_changed');
      // A branch on the new engine is compared with the upgraded base-branch scan, as usual.
      const fresh = await trigger('site2', await submit('site2', 'feature/new', pinned.pages));
      expect(fresh).toMatchObject({ passed: true, engine_change: null });
      expect(fresh.baseline).toMatchObject({ sha: upgraded, strategy: 'base_branch' });
      expect(fresh.counts).toMatchObject({ new: 0, fixed: 0, engine_changed: 0 });
    });
  });
});
