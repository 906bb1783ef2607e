/** The console's "next page" cursors: the last row's sort key, opaque to the visitor. */
export function encodePageCursor(values: Array<string | number>): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/** undefined for anything this console did not issue (the page then simply starts at the beginning). */
export function decodePageCursor(raw: unknown, arity: number): Array<string | number> | undefined {
  if (typeof raw !== 'string' || raw.length > 600) return undefined;
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(v) &&
      v.length === arity &&
      v.every((x) => (typeof x === 'string' && !x.includes('\u0000')) || typeof x === 'number')
    ) {
      return v as Array<string | number>;
    }
  } catch {
    // not ours
  }
  return undefined;
}

export function timeIdCursor(raw: unknown): { createdAt: string; id: string } | undefined {
  const v = decodePageCursor(raw, 2);
  return v ? { createdAt: String(v[0]), id: String(v[1]) } : undefined;
}
