import type { NextFunction, Request, Response } from 'express';
import type { ApiContext } from '../../../context.js';
import { DomainError } from '../../../domain/errors.js';
import { readSignedScreenshot } from '../../../services/scans/screenshot-links.js';
import { sendNotFound } from '../../errors.js';

/** Longest a browser or an image proxy may keep a picture: a link that has expired must stop working soon. */
const MAX_CACHE_SECONDS = 3600;

/**
 * `GET /screenshots/<id>.png?expires=…&signature=…`: an element screenshot for whoever holds its signed link
 * (GitHub's image proxy, a reader of the pull request, the console's own pages), with no session or key.
 * A forged, altered or expired link is the same 404 as an unknown picture.
 */
export function signedScreenshot(ctx: ApiContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    (async () => {
      const file = /^([A-Za-z0-9_]{1,60})\.png$/.exec(String(req.params.file));
      const expires = typeof req.query.expires === 'string' ? req.query.expires : '';
      const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
      if (!file || !/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{1,100}$/.test(signature)) {
        return sendNotFound(res, undefined);
      }
      try {
        const png = await readSignedScreenshot(ctx, file[1], Number(expires), signature);
        const left = Math.max(
          0,
          Math.min(MAX_CACHE_SECONDS, Number(expires) - Math.floor(Date.now() / 1000)),
        );
        res
          .status(200)
          .set({
            'Cache-Control': `public, max-age=${left}`,
            'X-Content-Type-Options': 'nosniff',
            'Content-Security-Policy': "default-src 'none'",
          })
          .type('image/png')
          .send(png);
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'not_found') return sendNotFound(res, undefined);
        throw err;
      }
    })().catch(next);
  };
}
