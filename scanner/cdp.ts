import type { CDPSession, Page } from 'playwright-core';

/**
 * The tab's own DevTools session, opened once and kept across its navigations. Calls made through it skip
 * what Playwright adds around each of its own: its helper script, compiled into every new document before
 * the first `evaluate`, and the isolated world `page.title()` creates in every document.
 */
const sessions = new WeakMap<Page, Promise<CDPSession>>();

export function cdpOf(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) sessions.set(page, (session = page.context().newCDPSession(page)));
  return session;
}

/**
 * Calls `fn(arg)` in the top document's own world and returns its (awaited) value, which must be plain
 * data. `fn` must be self-contained: it is sent as its source, as Playwright sends it.
 */
export async function evaluateInTop<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const answer = await (
    await cdpOf(page)
  ).send('Runtime.evaluate', {
    expression: `(${fn.toString()})(${JSON.stringify(arg)})`,
    awaitPromise: true,
    returnByValue: true,
  });
  if (answer.exceptionDetails) {
    const { exception, text } = answer.exceptionDetails;
    throw new Error(exception?.description?.split('\n')[0] ?? text);
  }
  return answer.result.value as R;
}
