/**
 * `npx tsx test/console/take-assessment-screenshots.ts [DIR]`: the assessment workspace and the site page
 * that starts it, light and dark, on a desktop and a 320 px wide screen (docs/assessment.md shows them).
 * Long pages are cut at 2,400 px.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Assessment } from '../helpers/api-types.js';
import { startHarness } from '../helpers/harness.js';
import { launch, type PageGlobals } from './browser.js';
import { seedConsole } from './seed.js';

async function main(): Promise<void> {
  const dir = process.argv[2] ?? 'docs/assessment';
  fs.mkdirSync(dir, { recursive: true });
  const h = await startHarness();
  const browser = await launch();
  try {
    const s = await seedConsole(h);
    const a = await h.request<Assessment>('POST', '/api/v1/assessments', {
      key: s.key,
      body: {
        siteId: s.siteId,
        title: 'Shop checkout, Q4',
        standard: { wcag: '2.2', level: 'AA' },
        sample: { pages: [], random: 2, seed: 7 },
      },
    });
    if (a.status !== 201) throw new Error(`assessment: ${a.status} ${a.text}`);
    const pages = a.body.sample.pages.map((p) => p.url);
    const put = (criterion: string, page: string | null, outcome: string, notes: string) =>
      h.request('PUT', `/api/v1/assessments/${a.body.id}/results/${criterion}`, {
        key: s.key,
        body: { page, outcome, notes, tester: 'Grace Officer' },
      });
    await put('1.1.1', null, 'passed', 'Alternatives checked with NVDA.');
    await put('1.4.3', pages[0], 'failed', 'Promo text on the hero image is too light.');
    await put('1.4.3', pages[1], 'passed', '');
    await put('1.4.3', pages[1], 'cantTell', 'Gradient behind the price; measure again.');
    const shots: Array<[string, string]> = [
      ['site', `/sites/${s.siteId}#assessments`],
      ['workspace', `/assessments/${a.body.id}?criterion=1.4.3`],
    ];
    for (const scheme of ['light', 'dark'] as const) {
      for (const [device, width, height] of [
        ['desktop', 1280, 900],
        ['320px', 320, 720],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
        const page = await context.newPage();
        await page.goto(`${h.url}/sign-in`);
        await page.fill('#key', s.key);
        await page.press('#key', 'Enter');
        await page.waitForURL(`${h.url}/`);
        for (const [name, url] of shots) {
          await page.goto(h.url + url);
          const full = await page.evaluate(
            () => (globalThis as unknown as PageGlobals).document.documentElement.scrollHeight,
          );
          const file = path.join(dir, `${name}-${device}-${scheme}.png`);
          await page.screenshot({
            path: file,
            fullPage: true,
            clip: { x: 0, y: 0, width, height: Math.min(full, 2400) },
          });
          if (name === 'workspace') {
            // The criterion being tested, whole: procedure, evidence, the result form and its history.
            const part = path.join(dir, `criterion-${device}-${scheme}.png`);
            await page.locator('section[aria-labelledby="criterion"]').screenshot({ path: part });
            console.log(part);
          }
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
