import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small site on loopback for the scanner's tests: a crawl graph with cycles, fragment links, an excluded
 * area, a page with a strict CSP and an iframe, a sitemap index, a page that never answers, a 404, and a
 * signed-in area that redirects to /login without the session cookie.
 */

const page = (title: string, body: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  '/': page(
    'Home',
    '<h1>Home</h1><a href="/a">A</a> <a href="/b">B</a> <a href="/a#top">A again</a> <a href="#main">skip</a> ' +
      '<a href="http://example.invalid/elsewhere">elsewhere</a> <a href="/report.pdf">PDF</a>',
  ),
  '/a': page(
    'A',
    '<h1>A</h1><img src="/x.png"><a href="/b">B</a> <a href="/">home</a> ' +
      '<p style="color:#777;background:#888">low contrast</p>',
  ),
  '/b': page(
    'B',
    '<h1>B</h1><a href="/a">A</a> <a href="/c">C</a> <iframe title="inner" src="/frame"></iframe>',
  ),
  '/frame': page('Frame', '<input type="text"><a href="/never-linked-elsewhere">x</a>'),
  '/c': page('C', '<h1>C</h1><a href="/admin/settings">admin</a> <a href="/d">D</a> <a href="/b">B</a>'),
  '/d': page('D', '<h1>D</h1><button></button><a href="/">home</a>', ''),
  '/admin/settings': page('Admin', '<h1>Admin</h1>'),
  '/login': page('Sign in', '<h1>Sign in</h1><form><input name="user"><button>Sign in</button></form>'),
  '/private': page('Account', '<h1>Account</h1><img src="/me.png">'),
};

export interface Site {
  url: string;
  /** Request headers seen, by path. */
  seen: { path: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

function handle(req: IncomingMessage, res: ServerResponse, base: () => string): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/slow') return; // never answers: the scan's timeout must end it
  if (path === '/sitemap.xml') {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(
      '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        `<sitemap><loc>${base()}/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
    );
    return;
  }
  if (path === '/sitemap-pages.xml') {
    res.writeHead(200, { 'content-type': 'application/xml' });
    // Production URLs: the scan aims them at this server with sitemap-rewrite.
    res.end(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        ['/a', '/c', '/a#again', '/missing', '/slow']
          .map((p) => `<url><loc>https://prod.example.com${p}</loc></url>`)
          .join('') +
        '</urlset>',
    );
    return;
  }
  if (
    path === '/private' &&
    !/(^|;\s*)session=ok(;|$)/.test(req.headers.cookie ?? '') &&
    req.headers['x-preview-token'] !== 'letmein'
  ) {
    res.writeHead(302, { location: '/login?next=/private' });
    res.end();
    return;
  }
  const html = PAGES[path];
  if (!html) {
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end(page('Not found', '<h1>Not found</h1>'));
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
  // A strict policy: without bypass-csp no injected script could run on /b.
  if (path === '/b') headers['content-security-policy'] = "default-src 'self'; script-src 'none'";
  res.writeHead(200, headers);
  res.end(html);
}

export async function startSite(): Promise<Site> {
  const seen: Site['seen'] = [];
  let url = '';
  const server: Server = createServer((req, res) => {
    seen.push({ path: new URL(req.url ?? '/', 'http://x').pathname, headers: req.headers });
    handle(req, res, () => url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
