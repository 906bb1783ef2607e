/**
 * Finds the members of a JSON object and the elements of a JSON array as byte ranges of the body,
 * without parsing their values: each is then parsed on its own (JSON.parse of its slice), so a 25 MB
 * scan never exists as one parsed object. The structure between the values (braces, commas, colons) is
 * checked here; the values are checked by JSON.parse. Any surprise answers `undefined` and the caller
 * parses the body whole instead, which gives the usual error.
 */

export interface JsonMember {
  key: string;
  start: number;
  end: number;
  /** For an array value with well-formed elements: their ranges (found while finding its end). */
  elements?: Array<[number, number]>;
}

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const WHITESPACE = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[c] = 1;
const PRIMITIVE_END = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x5d, 0x7d]) PRIMITIVE_END[c] = 1;

export function skipWhitespace(b: Buffer, i: number, end: number): number {
  while (i < end && WHITESPACE[b[i]]) i++;
  return i;
}

/** `b[i]` is a quote: the index after the closing quote, or -1. */
export function stringEnd(b: Buffer, i: number, end: number): number {
  for (let from = i + 1; ;) {
    const q = b.indexOf(QUOTE, from);
    if (q === -1 || q >= end) return -1;
    let backslashes = 0;
    for (let k = q - 1; b[k] === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The index after the value starting at `i`, or -1. */
export function valueEnd(b: Buffer, i: number, end: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i, end);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < end;) {
      const ch = b[j];
      if (ch === QUOTE) {
        j = stringEnd(b, j, end);
        if (j === -1) return -1;
        continue;
      }
      if (ch === 0x7b || ch === 0x5b) depth++;
      else if (ch === 0x7d || ch === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  let j = i;
  while (j < end && !PRIMITIVE_END[b[j]]) j++;
  return j === i ? -1 : j;
}

/** The members of the object spanning `start`..`end` (surrounding whitespace allowed). */
export function splitObject(b: Buffer, start = 0, end = b.length): JsonMember[] | undefined {
  let i = skipWhitespace(b, start, end);
  if (b[i] !== 0x7b) return undefined;
  const members: JsonMember[] = [];
  i = skipWhitespace(b, i + 1, end);
  if (b[i] === 0x7d) return skipWhitespace(b, i + 1, end) === end ? members : undefined;
  for (;;) {
    if (b[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(b, i, end);
    if (keyEnd === -1) return undefined;
    let key: string;
    try {
      key = JSON.parse(b.toString('utf8', i, keyEnd)) as string;
    } catch {
      return undefined;
    }
    i = skipWhitespace(b, keyEnd, end);
    if (b[i] !== 0x3a) return undefined;
    i = skipWhitespace(b, i + 1, end);
    // An array's elements are found on the way to its end: `pages` is then scanned once, not twice.
    const array = b[i] === 0x5b ? scanArray(b, i, end) : undefined;
    const vEnd = array ? array.end : valueEnd(b, i, end);
    if (vEnd === -1) return undefined;
    members.push({ key, start: i, end: vEnd, ...(array ? { elements: array.elements } : {}) });
    i = skipWhitespace(b, vEnd, end);
    if (b[i] === 0x2c) {
      i = skipWhitespace(b, i + 1, end);
      continue;
    }
    if (b[i] !== 0x7d) return undefined;
    return skipWhitespace(b, i + 1, end) === end ? members : undefined;
  }
}

/** The array starting at `b[i]` (a `[`): its elements as [start, end) pairs and the index after it. */
function scanArray(
  b: Buffer,
  i: number,
  end: number,
): { elements: Array<[number, number]>; end: number } | undefined {
  const elements: Array<[number, number]> = [];
  i = skipWhitespace(b, i + 1, end);
  if (b[i] === 0x5d) return { elements, end: i + 1 };
  for (;;) {
    const vEnd = valueEnd(b, i, end);
    if (vEnd === -1) return undefined;
    elements.push([i, vEnd]);
    i = skipWhitespace(b, vEnd, end);
    if (b[i] === 0x2c) {
      i = skipWhitespace(b, i + 1, end);
      continue;
    }
    return b[i] === 0x5d ? { elements, end: i + 1 } : undefined;
  }
}

/** The elements of the array spanning `start`..`end`, as [start, end) pairs. */
export function splitArray(b: Buffer, start: number, end: number): Array<[number, number]> | undefined {
  const i = skipWhitespace(b, start, end);
  if (b[i] !== 0x5b) return undefined;
  const array = scanArray(b, i, end);
  return array && skipWhitespace(b, array.end, end) === end ? array.elements : undefined;
}
