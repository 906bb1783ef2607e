/**
 * `npx tsx test/console/take-statement-screenshots.ts [DIR]`: the statement page of a draft (what the evidence
 * says, the questions still open, the form), the site page's statement part, and the rendered statement and
 * EAA service information, light and dark, on a desktop and a 320 px wide screen, for a person to look at
 * (long pages are cut at 2,400 px). DIR defaults to a folder under the system's temporary directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Statement } from '../helpers/api-types.js';
import { startHarness } from '../helpers/harness.js';
import { COMPLETE_ANSWERS, seedStatementSite } from '../helpers/statement-seed.js';
import { launch, type PageGlobals } from './browser.js';

async function main(): Promise<void> {
  const dir = process.argv[2] ?? path.join(os.tmpdir(), 'a11y-gate-statement-screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const h = await startHarness();
  const browser = await launch();
  try {
    const s = await seedStatementSite(h);
    const { entity, feedback, contact_email } = COMPLETE_ANSWERS;
    const draft = await h.request<Statement>('POST', '/api/v1/statements', {
      key: s.key,
      body: { siteId: s.siteId, answers: { entity, feedback, contact_email } },
    });
    if (draft.status !== 201) throw new Error(`statement: ${draft.status} ${draft.text}`);
    const id = draft.body.id;
    const shots: Array<[string, string]> = [
      ['statement-page', `/statements/${id}`],
      ['site-statements', `/sites/${s.siteId}#statements`],
      ['statement-html', `/api/v1/statements/${id}?format=html`],
      ['statement-eaa', `/api/v1/statements/${id}?format=eaa`],
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
          // The API's documents are read with the key, as a browser extension or a script would.
          await page.setExtraHTTPHeaders(url.startsWith('/api/') ? { authorization: `Bearer ${s.key}` } : {});
          await page.goto(h.url + url);
          const full = await page.evaluate(
            () => (globalThis as unknown as PageGlobals).document.documentElement.scrollHeight,
          );
          const file = path.join(dir, `${name}-${device}-${scheme}.png`);
          if (name === 'site-statements') {
            // The site page is long: its statement part alone.
            await page.locator('section[aria-labelledby="statements"]').screenshot({ path: file });
          } else {
            await page.screenshot({
              path: file,
              fullPage: true,
              clip: { x: 0, y: 0, width, height: Math.min(full, 2400) },
            });
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

await main();
