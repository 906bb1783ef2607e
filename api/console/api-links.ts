import type { NextFunction, Request, Response, Router } from 'express';

/** API addresses of things that have a console page (by the address's resource), and that page. */
const PAGES: Record<string, (id: string) => string> = {
  deploy: (id) => `/deploys/${encodeURIComponent(id)}`,
  scans: (id) => `/scans/${encodeURIComponent(id)}`,
};
const API_ADDRESS = /^\/api\/v1\/(deploy|scans)\/([^/]+)$/;

/**
 * A person who opens the API address of a deploy event or scan in a browser (no credential, and HTML
 * preferred to JSON) is sent to its console page, which asks them to sign in, instead of reading a 401
 * problem. Clients of the API send a key, or ask for JSON, and get the API's answer as before. An id that is
 * not valid percent-encoding goes on to the API, whose answer is its 404.
 */
export function apiLinksForBrowsers(router: Router): void {
  // A middleware, not a route: express would decode a route's captures itself and fail on a bad one.
  router.use((req: Request, res: Response, next: NextFunction) => {
    const address = req.method === 'GET' ? API_ADDRESS.exec(req.path) : null;
    if (!address) return next();
    const credential = req.get('authorization') ?? req.get('x-api-key') ?? req.get('x-admin-token');
    if (credential !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') {
      return next();
    }
    const [, resource, encoded] = address;
    let id: string;
    try {
      id = decodeURIComponent(encoded);
    } catch {
      return next();
    }
    res.redirect(303, PAGES[resource](id));
  });
}
