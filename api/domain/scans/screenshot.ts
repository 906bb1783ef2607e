import { createHmac, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { truncate } from '../text/truncation.js';

/**
 * Element screenshots: what a PNG must be to be stored, and the signature of the expiring URLs that show it
 * without a session (GitHub's image proxy and a pull request's readers hold no key).
 */

/** Largest picture stored (bytes of the PNG file). */
export const SCREENSHOT_MAX_BYTES = 100 * 1024;
/** Largest side, and largest area, of a stored picture: a small file can declare a huge canvas. */
export const SCREENSHOT_MAX_SIDE = 4096;
export const SCREENSHOT_MAX_PIXELS = 4096 * 2048;
/** Pictures of one scan, and of one page of it, the service keeps. */
export const SCREENSHOTS_PER_SCAN = 500;
export const SCREENSHOTS_PER_PAGE = 20;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour types and the bit depths PNG allows for each. */
const DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

export type PngCheck = { ok: true; width: number; height: number } | { ok: false; problem: string };

/**
 * Reads a PNG's structure without decoding its pixels: the signature, a valid IHDR first, every chunk inside
 * the file with a correct CRC, at least one IDAT, and IEND last. Dimensions within the limits above.
 */
export function checkPng(png: Buffer): PngCheck {
  const bad = (problem: string): PngCheck => ({ ok: false, problem });
  if (png.length > SCREENSHOT_MAX_BYTES) return bad(`is larger than ${SCREENSHOT_MAX_BYTES} bytes`);
  if (png.length < 8 + 25 + 12 || !png.subarray(0, 8).equals(SIGNATURE)) return bad('is not a PNG file');
  let offset = 8;
  let width = 0;
  let height = 0;
  let idat = false;
  for (let index = 0; ; index++) {
    if (offset + 12 > png.length) return bad('ends inside a chunk');
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > png.length || end > png.length) return bad(`has a chunk "${type}" longer than the file`);
    if (crc32(png.subarray(offset + 4, offset + 8 + length)) !== png.readUInt32BE(offset + 8 + length)) {
      return bad(`has a chunk "${type}" with a wrong checksum`);
    }
    if (index === 0) {
      if (type !== 'IHDR' || length !== 13) return bad('does not start with its header (IHDR)');
      width = png.readUInt32BE(offset + 8);
      height = png.readUInt32BE(offset + 12);
      const depth = png[offset + 16];
      const colour = png[offset + 17];
      if (!DEPTHS[colour]?.includes(depth)) return bad('has an invalid colour type or bit depth');
      if (png[offset + 18] !== 0 || png[offset + 19] !== 0 || png[offset + 20] > 1) {
        return bad('has an invalid compression, filter or interlace method');
      }
    } else if (type === 'IHDR') {
      return bad('has a second header');
    }
    if (type === 'IDAT') idat = true;
    offset = end;
    if (type === 'IEND') break;
  }
  if (offset !== png.length) return bad('has bytes after its end (IEND)');
  if (!idat) return bad('has no image data (IDAT)');
  if (width < 1 || height < 1) return bad('has no pixels');
  if (width > SCREENSHOT_MAX_SIDE || height > SCREENSHOT_MAX_SIDE || width * height > SCREENSHOT_MAX_PIXELS) {
    return bad(`is ${width}×${height} pixels, larger than the limit`);
  }
  return { ok: true, width, height };
}

/** The signature of a screenshot URL: HMAC-SHA256 over the image id and the expiry (Unix seconds). */
export function screenshotSignature(key: Buffer, id: string, expires: number): string {
  return createHmac('sha256', key).update(`screenshot\n${id}\n${expires}`).digest('base64url');
}

/** Whether `signature` is the one for this id and expiry and the expiry has not passed (constant-time). */
export function validScreenshotSignature(
  key: Buffer,
  id: string,
  expires: number,
  signature: string,
  nowSeconds: number,
): boolean {
  const expected = Buffer.from(screenshotSignature(key, id, expires));
  const given = Buffer.from(signature);
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return same && expires > nowSeconds;
}

/** The alt text of an element's picture: the rule and the element, as a screen reader user needs them. */
export function screenshotAlt(rule: string, selector: string): string {
  const element = truncate(selector, 120);
  return `Screenshot of the element ${element} that fails the rule ${rule}`;
}
