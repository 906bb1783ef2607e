import type { Response } from 'express';
import { renderDocument, type Html } from '../../core/text/html.js';

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

/** Marks when the console began to answer (its first middleware), for the Server-Timing header. */
export function startTimer(res: Response): void {
  res.locals.consoleStartedAt = performance.now();
}

export function sendPage(res: Response, status: number, page: Html): void {
  const body = renderDocument(page);
  const started = res.locals.consoleStartedAt as number | undefined;
  // The server's own time for the page (session, data, rendering), readable by the bench and DevTools.
  if (started !== undefined) res.set('Server-Timing', `page;dur=${(performance.now() - started).toFixed(1)}`);
  res
    .status(status)
    .set({
      'Content-Security-Policy': CONSOLE_CSP,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'same-origin',
    })
    .type('text/html; charset=utf-8')
    .send(body);
}

/** After a form: 303 so the browser reads the next page with GET (reloading it posts nothing again). */
export function redirectAfterPost(res: Response, to: string): void {
  res.redirect(303, to);
}
