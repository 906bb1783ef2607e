import fs from 'node:fs';
import { closeBrowser, runAxe, type AxeResults } from '../../helpers/axe-browser.js';
import type { CreatedScan, ScanDetail } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { chromium, describeWith } from '../../helpers/requirements.js';
import { FIXTURE_PAGES } from '../../fixtures/axe/pages.js';

// Real axe-core in Debian's Chromium (.ci/run installs the `chromium` package).
describeWith(chromium, 'axe-core in Chromium → POST /scans → GET /scans/:id', () => {
  afterAll(async () => {
    await closeBrowser();
  });

  describe.each(dbKinds)('%s', (db) => {
    const h = useHarness({ db, org: 'browser' });

    async function submit(sha: string, pages: Array<{ url: string; html: string }>) {
      const results: AxeResults[] = [];
      for (const page of pages) results.push(await runAxe(page.html, { url: page.url }));
      const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key: h.key,
        body: {
          url: 'http://fixture.test/',
          siteId: 'browser',
          sha,
          branch: 'main',
          pages: pages.map((p, i) => ({ url: p.url, axe: results[i] })),
        },
      });
      expect(created.status).toBe(201);
      const got = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
      expect(got.status).toBe(200);
      return { results, created: created.body, scan: got.body };
    }

    test('every violating and incomplete node becomes one issue, with what axe said about it', async () => {
      // One scan, one page per address: `fixes` is the defects page after a change, at the same address.
      const pages = Object.entries(FIXTURE_PAGES).filter(([name]) => name !== 'fixes');
      const { results, created, scan } = await submit(
        '1'.repeat(40),
        pages.map(([, page]) => page),
      );
      const expected = results.flatMap((r, page) =>
        (['violations', 'incomplete'] as const).flatMap((list) =>
          r[list].flatMap((rule) =>
            rule.nodes.map((node) => ({
              page_index: page,
              rule: rule.id,
              kind: list === 'violations' ? 'violation' : 'incomplete',
              impact: node.impact ?? rule.impact ?? null,
              html: node.html,
              help_url: rule.helpUrl,
            })),
          ),
        ),
      );
      expect(expected.length).toBeGreaterThanOrEqual(9);
      const got = scan.issues.map((i) => ({
        page_index: i.page_index,
        rule: i.rule,
        kind: i.kind,
        impact: i.impact,
        html: i.html,
        help_url: i.help_url,
      }));
      expect(got).toEqual(expected);
      expect(created.summary.issues).toBe(expected.length);
      expect(scan.engine).toEqual({ name: 'axe-core', version: results[0].testEngine.version });
      const ran = new Set(
        results.flatMap((r) =>
          [...r.passes, ...r.violations, ...r.incomplete, ...r.inapplicable].map((x) => x.id),
        ),
      );
      expect(scan.rules_run).toEqual([...ran].sort());
      // The shadow-DOM and iframe paths survive, and the criteria come from axe's tags.
      const selectors = scan.issues.map((i) => i.selector);
      expect(selectors).toEqual(expect.arrayContaining(['#card-host >>> button', '#payment |> #card-logo']));
      expect(scan.issues.find((i) => i.rule === 'color-contrast')!.wcag).toEqual(['1.4.3']);
    });

    test('the committed fixtures still match what the installed axe-core reports', async () => {
      for (const [name, page] of Object.entries(FIXTURE_PAGES)) {
        const live = await runAxe(page.html, { url: page.url });
        const saved = JSON.parse(
          fs.readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8'),
        ) as AxeResults;
        const shape = (r: AxeResults) =>
          [...r.violations, ...r.incomplete].map((v) => [v.id, v.nodes.map((n) => JSON.stringify(n.target))]);
        expect(shape(live)).toEqual(shape(saved));
        expect(live.testEngine.version).toBe(saved.testEngine.version);
      }
    });

    test('scanning the same pages again gives the same fingerprints; fixing a defect removes its fingerprint', async () => {
      const page = FIXTURE_PAGES.defects;
      const first = await submit('2'.repeat(40), [page]);
      const again = await submit('3'.repeat(40), [{ ...page, url: page.url.replace('#reviews', '') }]);
      const fps = (s: { issues: Array<{ fingerprint: string }> }) =>
        s.issues.map((i) => i.fingerprint).sort();
      expect(fps(again.scan)).toEqual(fps(first.scan));

      // Give the image an alt text: exactly that issue's fingerprint disappears.
      const fixed = await submit('4'.repeat(40), [
        { ...page, html: page.html.replace('class="css-1x2y3z hero"', 'alt="Sale" class="css-1x2y3z hero"') },
      ]);
      const gone = fps(first.scan).filter((f) => !fps(fixed.scan).includes(f));
      const imageAlt = first.scan.issues.find((i) => i.rule === 'image-alt')!.fingerprint;
      expect(gone).toEqual([imageAlt]);
    });
  });
});
