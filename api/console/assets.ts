import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { STYLESHEET } from './stylesheet.js';

const hash = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12);

/** The file name carries the content's hash, so a browser may keep it for a year and still see changes at once. */
export const STYLESHEET_PATH = `/console/assets/console-${hash}.css`;

export function serveStylesheet(_req: Request, res: Response): void {
  res
    .status(200)
    .set('Cache-Control', 'public, max-age=31536000, immutable')
    .type('text/css; charset=utf-8')
    .send(STYLESHEET);
}
