import type { Request } from 'express';
import type { ZodType } from 'zod';
import type { ResponseSpec } from './route.js';
import { problems } from './problem.js';

/** Opaque keyset cursor: base64url JSON of the last row's sort key. */
export function encodeCursor(values: Array<string | number>): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

// U+0000 cannot be in any stored value, and PostgreSQL refuses it in a query parameter.
function isCursorValue(v: unknown): v is string | number {
  return (typeof v === 'string' && !v.includes('\u0000')) || typeof v === 'number';
}

export function decodeCursor(cursor: string | undefined, arity: number): Array<string | number> | undefined {
  if (cursor === undefined) return undefined;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const list: unknown[] = Array.isArray(values) ? values : [];
    if (list.length === arity && list.every(isCursorValue)) return list;
  } catch {
    // fall through to the validation error
  }
  throw problems.validation([{ pointer: '#/query/cursor', detail: 'is not a cursor this API issued' }]);
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that there is more.
 * Returns the body and the `Link` header for the next page.
 */
export function toPage<R, T>(
  req: Request,
  rows: R[],
  limit: number,
  cursorOf: (row: R) => Array<string | number>,
  present: (row: R) => T,
): { body: Page<T>; headers: Record<string, string> } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const next = more ? encodeCursor(cursorOf(kept[kept.length - 1])) : null;
  const headers: Record<string, string> = {};
  if (next) {
    const url = new URL(req.originalUrl, 'http://placeholder');
    url.searchParams.set('cursor', next);
    url.searchParams.set('limit', String(limit));
    headers.Link = `<${url.pathname}${url.search}>; rel="next"`;
  }
  return { body: { data: kept.map(present), next_cursor: next }, headers };
}

/** The keyset position of a newest-first list: the last row's creation time and id. */
export interface NewestFirstKey {
  createdAt: string;
  id: string;
}

/**
 * A whole list endpoint's paging in one call: decodes the `(created_at, id)` cursor, fetches one row more
 * than `limit` (so the page knows whether there is more), and answers with the page and its `Link` header.
 */
export async function newestFirstPage<R, T>(
  req: Request,
  query: { cursor?: string; limit: number },
  fetch: (limit: number, after: NewestFirstKey | undefined) => Promise<R[]>,
  keyOf: (row: R) => [createdAt: string, id: string],
  present: (row: R) => T,
): Promise<{ status: 200; body: Page<T>; headers: Record<string, string> }> {
  const after = decodeCursor(query.cursor, 2);
  const rows = await fetch(
    query.limit + 1,
    after ? { createdAt: String(after[0]), id: String(after[1]) } : undefined,
  );
  const page = toPage(req, rows, query.limit, keyOf, present);
  return { status: 200, body: page.body, headers: page.headers };
}

/** The answers of a paged list route: 200 with the page and its `Link` header to the next one. */
export function pagedResponses(description: string, schema: ZodType): Record<number, ResponseSpec> {
  return { 200: { description, schema, headers: { Link: '' } } };
}
