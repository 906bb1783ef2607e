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
