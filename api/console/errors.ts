import type { NextFunction, Request, Response } from 'express';
import type { ApiContext } from '../context.js';
import { markup } from '../../core/text/html.js';
import { layout } from './layout.js';
import { sendPage } from './respond.js';
import type { Visitor } from './session.js';

/**
 * The console's errors are pages in its layout (people read them), never problem+json: 404 for a missing
 * id and for another organisation's (the same page, so ids do not leak), 403 for a missing scope or CSRF
 * token, 500 when the server failed.
 */

const back = markup`<p><a href="/">Back to your sites</a></p>`;

/** Who the pages of this request were for, once known, so an error page can keep the account menu. */
export function rememberVisitor(res: Response, visitor: Visitor): void {
  res.locals.consoleVisitor = visitor;
}

const visitorOf = (res: Response) => res.locals.consoleVisitor as Visitor | undefined;

export function sendNotFound(res: Response, visitor: Visitor | undefined): void {
  sendPage(
    res,
    404,
    layout({
      title: 'Not found',
      visitor,
      main: markup`<p>There is nothing here, or it belongs to another organisation.</p>
        ${back}`,
    }),
  );
}

export function sendForbidden(res: Response, visitor: Visitor, detail: string): void {
  sendPage(res, 403, layout({ title: 'Not allowed', visitor, main: markup`<p>${detail}</p>${back}` }));
}

/** Last in the console's router: a failure while answering a page is a page too. */
export function consoleErrorHandler(ctx: ApiContext) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: number }).status;
    const visitor = visitorOf(res);
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Body-parser's refusals (a form too large or malformed): the sender's mistake, said plainly.
      sendPage(
        res,
        status,
        layout({
          title: 'This form could not be read',
          visitor,
          main: markup`<p>The form was too large or malformed, and nothing was changed. Go back and try again.</p>
            ${back}`,
        }),
      );
      return;
    }
    ctx.logger.error({ err, method: req.method, path: req.path }, 'console page failed');
    sendPage(
      res,
      500,
      layout({
        title: 'Something went wrong',
        visitor,
        main: markup`<p>The server could not show this page, and nothing was changed by it. The failure was
            logged; try again in a moment.</p>
          ${back}`,
      }),
    );
  };
}
