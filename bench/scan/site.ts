import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * 100 pages on loopback, alike in size to a small shop's pages: a header and navigation, a product grid,
 * a form and a footer, with a few real accessibility problems that vary by page (missing alt text, low
 * contrast, an unlabelled input, an empty button), so every tool has findings to report.
 */
export function pageHtml(n: number): string {
  const products = Array.from(
    { length: 12 },
    (_, i) =>
      `<li class="card"><img src="/img/${n}-${i}.png"${(n + i) % 5 === 0 ? '' : ` alt="Product ${i}"`}>` +
      `<h3><a href="/p/${(n + i + 1) % 100}">Product ${n}-${i}</a></h3><p class="price">${(i + 1) * 7} €</p>` +
      `<button type="button">Add to cart</button></li>`,
  ).join('');
  const contrast = n % 3 === 0 ? '<p style="color:#999;background:#aaa">Only 3 left</p>' : '';
  const input =
    n % 4 === 0 ? '<input type="email" name="e">' : '<label>Email <input type="email" name="e"></label>';
  const empty = n % 7 === 0 ? '<button class="icon"></button>' : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${n}</title>
<style>body{font-family:sans-serif}.card{display:inline-block;width:180px;margin:8px}</style></head><body>
<header><a href="/">Shop</a><nav aria-label="Main"><ul>${[1, 2, 3, 4, 5].map((k) => `<li><a href="/p/${(n + k) % 100}">Section ${k}</a></li>`).join('')}</ul></nav></header>
<main><h1>Page ${n}</h1>${contrast}<ul class="grid">${products}</ul>
<form><h2>Newsletter</h2>${input}<button type="submit">Subscribe</button>${empty}</form></main>
<footer><p>© Shop</p><a href="/p/${(n + 50) % 100}">Related</a></footer></body></html>`;
}

export interface BenchSite {
  urls: string[];
  close(): Promise<void>;
}

export async function startBenchSite(): Promise<BenchSite> {
  const server: Server = createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    if (!m) {
      res.writeHead(req.url?.startsWith('/img/') ? 200 : 404, { 'content-type': 'image/png' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pageHtml(Number(m[1])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: Array.from({ length: 100 }, (_, i) => `${base}/p/${i}`),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
