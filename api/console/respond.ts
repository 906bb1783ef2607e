import type { Response } from 'express';
import { renderDocument, type Html } from './html.js';

/**
 * No script at all, styles only from our own stylesheet, forms only to ourselves, never framed. Inline
 * `style` attributes are refused too, so the markup carries no presentation.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function sendPage(res: Response, status: number, page: Html): void {
  res
    .status(status)
    .set({
      'Content-Security-Policy': CONSOLE_CSP,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'same-origin',
    })
    .type('text/html; charset=utf-8')
    .send(renderDocument(page));
}

/** After a form: 303 so the browser reads the next page with GET (reloading it posts nothing again). */
export function redirectAfterPost(res: Response, to: string): void {
  res.redirect(303, to);
}
