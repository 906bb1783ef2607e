import fs from 'node:fs/promises';
import path from 'node:path';
import type { PageOutcome } from './page-scan.js';

/**
 * A file name from the page's path (and its viewport, when named): `003-products-shoes.json`,
 * `004-products-shoes-iPhone-13.json`, numbered in scan order.
 */
function fileName(index: number, url: string, suffix: string, viewport?: string): string {
  const u = new URL(url);
  const slugOf = (text: string) =>
    text
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80);
  const slug = slugOf(u.pathname + u.search) || 'index';
  return `${String(index + 1).padStart(3, '0')}-${slug}${viewport ? `-${slugOf(viewport)}` : ''}${suffix}`;
}

/**
 * Each page's raw axe-core result as axe returned it (`NNN-path.json`, also readable by the `results` input
 * and other axe tools); a failed page as `NNN-path.failed.json` with its error and HTTP status.
 */
export async function writeResultsDir(dir: string, pages: PageOutcome[]): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const [i, p] of pages.entries()) {
    const file = path.join(dir, fileName(i, p.url, p.ok ? '.json' : '.failed.json', p.viewport));
    const body = p.ok
      ? p.axe
      : {
          url: p.url,
          ...(p.viewport ? { viewport: p.viewport } : {}),
          final_url: p.finalUrl,
          http_status: p.status,
          error: p.error,
          login_redirect: p.loginRedirect,
        };
    await fs.writeFile(file, JSON.stringify(body, null, 2) + '\n');
    written.push(file);
  }
  return written;
}
