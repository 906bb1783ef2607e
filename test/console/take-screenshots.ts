/**
 * `npx tsx test/console/take-screenshots.ts [DIR]`: screenshots of every console page type, light and dark,
 * on a desktop and a 320 px wide screen, from a server seeded like the browser tests (docs/console.md
 * shows them). Long pages are cut at 2,400 px; the review queue's picture starts at its heading.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { VpatReport } from '../helpers/api-types.js';
import { startHarness } from '../helpers/harness.js';
import { launch, type PageGlobals } from './browser.js';
import { seedReport } from './report-seed.js';
import { seedConsole } from './seed.js';

async function main(): Promise<void> {
  const dir = process.argv[2] ?? 'docs/console';
  fs.mkdirSync(dir, { recursive: true });
  const h = await startHarness();
  const browser = await launch();
  try {
    const s = await seedConsole(h);
    for (const [siteId, n] of [
      ['docs-portal', 2],
      ['checkout-api', 0],
    ] as const) {
      await h.request('POST', '/api/v1/scans', {
        key: s.key,
        body: {
          siteId,
          url: `https://${siteId}.example/`,
          branch: 'main',
          pages: [{ url: `https://${siteId}.example/`, issues: [] }],
        },
      });
      await h.request('PATCH', `/api/v1/sites/${siteId}`, {
        key: s.key,
        body: { name: n ? 'Documentation portal' : null },
      });
    }
    // A report reviewed to its last three rows, and one published, for the report page's states.
    const r = await seedReport(h);
    const left = await h.request<VpatReport>('POST', `/api/v1/vpat/${r.reportId}/review`, {
      key: r.key,
      body: {
        author: 'Grace Officer',
        decisions: r.left.map((criterion) => ({
          criterion,
          conformance: 'supports',
          remarks: 'Checked by hand.',
        })),
      },
    });
    const final = await h.request<VpatReport>('POST', `/api/v1/vpat/${left.body.id}/publish`, {
      key: r.key,
      body: { publisher: 'Grace Officer' },
    });
    // [name, address, where the picture starts (the page's top unless a selector says)]
    const pages: Array<[string, string, string?]> = [
      ['sign-in', '/sign-in'],
      ['sites', '/'],
      ['site', `/sites/${s.siteId}`],
      ['scan', `/scans/${s.headScanId}`],
      ['deploy', `/deploys/${s.deployId}`],
      ['report', `/reports/${s.reportId}`],
      // From the queue's heading, so the one review form shows whole on a desktop.
      ['report-queue', `/reports/${r.reportId}`, '#queue'],
      ['report-published', `/reports/${final.body.id}`],
      ['report-changes', `/reports/${final.body.id}/changes?against=${r.firstId}`],
    ];
    for (const scheme of ['light', 'dark'] as const) {
      for (const [device, width, height] of [
        ['desktop', 1280, 900],
        ['320px', 320, 720],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
        const page = await context.newPage();
        for (const [name, url, from] of pages) {
          if (name === 'sign-in') {
            await page.goto(h.url + url);
          } else if (!page.url().startsWith(h.url) || new URL(page.url()).pathname === '/sign-in') {
            await page.goto(`${h.url}/sign-in?next=${encodeURIComponent(url)}`);
            await page.fill('#key', s.key);
            await page.press('#key', 'Enter');
            await page.waitForURL(h.url + url);
          } else {
            await page.goto(h.url + url);
          }
          const full = await page.evaluate(
            () => (globalThis as unknown as PageGlobals).document.documentElement.scrollHeight,
          );
          const top = (from ? await page.locator(from).boundingBox() : null)?.y ?? 0;
          const y = Math.max(0, Math.floor(top) - 16);
          const file = path.join(dir, `${name}-${device}-${scheme}.png`);
          await page.screenshot({
            path: file,
            fullPage: true,
            clip: { x: 0, y, width, height: Math.min(full - y, 2400) },
          });
          console.log(file);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await h.close();
  }
}

void main();
