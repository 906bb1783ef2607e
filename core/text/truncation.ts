/**
 * Cuts a string to at most `maxBytes` of UTF-8 without splitting a character. Returns the input
 * itself when it fits (the common case costs one length check).
 */
export function truncateUtf8(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short strings need no byte count.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes) {
    return { text, truncated: false };
  }
  const bytes = Buffer.from(text, 'utf8');
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}

/**
 * Cuts text to at most `max` UTF-16 code units (JavaScript's length), ending with an ellipsis when cut, and
 * never between the two halves of a surrogate pair (half an emoji would show as U+FFFD, or make GitHub
 * refuse the JSON).
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + '…';
}

/**
 * PostgreSQL `text` cannot hold U+0000 (SQLite can), so one NUL would turn a whole scan into a 500 on
 * one database and not the other. Identifiers (rules, URLs, branches) carrying it are refused by the
 * schemas with this message; free text (markup, messages, titles) gets U+FFFD instead, as an HTML
 * parser does, so one odd attribute value does not reject a 50,000-issue scan.
 */
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

export function isNulFree(text: string): boolean {
  return !text.includes('\u0000');
}

export function replaceNul<T extends string | null>(text: T): T {
  return (text !== null && text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text) as T;
}
