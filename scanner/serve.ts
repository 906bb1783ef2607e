import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sirv from 'sirv';

/**
 * A built folder (`serve`) served on 127.0.0.1 at a free port for the length of a run, with sirv: files as
 * they are, `/about` from `about.html` or `about/index.html`, and with `spa` an unknown path answered by the
 * folder's index.html (a single-page app routes it in the browser). Nothing listens beyond loopback.
 */

export interface ServedFolder {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  origin: string;
  close(): Promise<void>;
}

export async function serveFolder(dir: string, spa: boolean): Promise<ServedFolder> {
  // The folder is indexed once at start (a finished build does not change during the run); dot files, such
  // as a stray `.env`, are not served.
  const handler = sirv(dir, {
    single: spa,
    dotfiles: false,
    // A body, so the browser shows the 404 as the page's answer (an empty one is a network error to it).
    onNoMatch: (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not found in the served folder.\n');
    },
  });
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // The browser may keep connections open: end them, or close would wait for them.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
