/**
 * `npx tsx test/app/take-comment-screenshot.ts [FILE]`: the sample pull request comment rendered as GitHub
 * would (marked, GitHub-like styles) in Chromium, screenshotted for docs/github-app.md.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/requirements.js';
import { openCommentPage } from '../fixtures/github/comment-page.js';

const file = process.argv[2] ?? 'docs/github-app-comment.png';
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  args: ['--headless', '--no-sandbox'],
});
try {
  const page = await openCommentPage(browser);
  await page.locator('main').screenshot({ path: file });
  console.log(`wrote ${file}`);
} finally {
  await browser.close();
}
