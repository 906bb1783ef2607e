import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScanDetail } from './api-types.js';

/**
 * A site of N small pages on loopback with a sitemap listing them all, for the sharded-scan tests: the
 * pages differ in which accessibility problems they have (missing alt text, low contrast, an unlabelled
 * input, an empty button), so a page that went missing or twice changes the issues.
 */
function pageHtml(n: number): string {
  const img = n % 3 === 0 ? `<img src="/i/${n}.png">` : `<img src="/i/${n}.png" alt="Item ${n}">`;
  const contrast = n % 5 === 0 ? '<p style="color:#999;background:#aaa">Low stock</p>' : '';
  const input =
    n % 4 === 0 ? '<input type="email" name="e">' : '<label>Email <input type="email" name="e"></label>';
  const button = n % 7 === 0 ? '<button class="icon"></button>' : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Item ${n}</title></head><body>
<main><h1>Item ${n}</h1>${img}${contrast}<form>${input}${button}<button type="submit">Go</button></form></main></body></html>`;
}

export interface ShardedSite {
  url: string;
  sitemap: string;
  pages: number;
  close(): Promise<void>;
}

export async function startShardedSite(pages: number): Promise<ShardedSite> {
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      const locs = Array.from({ length: pages }, (_, n) => `<url><loc>${base}/item/${n}</loc></url>`);
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`,
      );
      return;
    }
    const m = /^\/item\/(\d+)$/.exec(path);
    if (!m || Number(m[1]) >= pages) {
      res.writeHead(path.startsWith('/i/') ? 200 : 404, { 'content-type': 'image/png' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(Number(m[1])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    sitemap: `${base}/sitemap.xml`,
    pages,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A scan's pages and issues as sorted lists: two scans of the same pages compare equal, in any order. */
export function scanContents(scan: ScanDetail) {
  return {
    pages: scan.pages.map((p) => [p.url, p.title, p.http_status, p.issue_count].join('|')).sort(),
    issues: scan.issues
      .map((i) => [i.page_url, i.rule, i.impact, i.kind, i.selector, i.html, i.fingerprint].join('|'))
      .sort(),
    summary: scan.summary,
  };
}
