import type { NextFunction, Request, Response, Router } from 'express';

/** API addresses of things that have a console page, and that page. */
const PAGES: Array<[string, (id: string) => string]> = [
  ['/api/v1/deploy/:id', (id) => `/deploys/${encodeURIComponent(id)}`],
  ['/api/v1/scans/:id', (id) => `/scans/${encodeURIComponent(id)}`],
];

/**
 * A person who opens the API address of a deploy event or scan in a browser (no credential, and HTML
 * preferred to JSON) is sent to its console page, which asks them to sign in, instead of reading a 401
 * problem. Clients of the API send a key, or ask for JSON, and get the API's answer as before.
 */
export function apiLinksForBrowsers(router: Router): void {
  for (const [path, pageOf] of PAGES) {
    router.get(path, (req: Request, res: Response, next: NextFunction) => {
      const credential = req.get('authorization') ?? req.get('x-api-key') ?? req.get('x-admin-token');
      if (credential !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') {
        return next();
      }
      res.redirect(303, pageOf(String(req.params.id)));
    });
  }
}
