import zlib, { crc32 } from 'node:zlib';

/**
 * Just enough PNG to cut one capture of the browser into the pictures of several elements: Chromium's
 * captures (8-bit RGB or RGBA, not interlaced) are read, and plain RGB or RGBA pictures written. Anything
 * else reads as null and the caller captures each element on its own.
 */
export interface Pixels {
  width: number;
  height: number;
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  channels: 3 | 4;
  /** Rows top to bottom, without filter bytes. */
  data: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes one row's filter in place (`prev` is the row above, already unfiltered, or zeros). */
function unfilter(type: number, row: Buffer, prev: Buffer, bpp: number): boolean {
  const n = row.length;
  if (type === 0) return true;
  if (type === 1) for (let i = bpp; i < n; i++) row[i] = (row[i] + row[i - bpp]) & 0xff;
  else if (type === 2) for (let i = 0; i < n; i++) row[i] = (row[i] + prev[i]) & 0xff;
  else if (type === 3)
    for (let i = 0; i < n; i++) row[i] = (row[i] + (((i >= bpp ? row[i - bpp] : 0) + prev[i]) >> 1)) & 0xff;
  else if (type === 4)
    for (let i = 0; i < n; i++) {
      const left = i >= bpp;
      row[i] = (row[i] + paeth(left ? row[i - bpp] : 0, prev[i], left ? prev[i - bpp] : 0)) & 0xff;
    }
  else return false;
  return true;
}

export function decodePng(png: Buffer): Pixels | null {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) return null;
  let width = 0;
  let height = 0;
  let channels: 3 | 4 = 4;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      if (depth !== 8 || interlace !== 0 || (colour !== 2 && colour !== 6)) return null;
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      channels = colour === 2 ? 3 : 4;
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (width < 1 || height < 1 || idat.length === 0) return null;
  let raw: Buffer;
  try {
    raw = zlib.inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  const stride = width * channels;
  if (raw.length < (stride + 1) * height) return null;
  const data = Buffer.alloc(stride * height);
  let prev: Buffer = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const row = data.subarray(y * stride, (y + 1) * stride);
    raw.copy(row, 0, y * (stride + 1) + 1, (y + 1) * (stride + 1));
    if (!unfilter(raw[y * (stride + 1)], row, prev, channels)) return null;
    prev = row;
  }
  return { width, height, channels, data };
}

/** The rectangle of `from` at (x, y), of the given size, which must lie inside it. */
export function cropPixels(from: Pixels, x: number, y: number, width: number, height: number): Pixels {
  const stride = width * from.channels;
  const data = Buffer.alloc(stride * height);
  for (let row = 0; row < height; row++) {
    const start = ((y + row) * from.width + x) * from.channels;
    from.data.copy(data, row * stride, start, start + stride);
  }
  return { width, height, channels: from.channels, data };
}

/** How far a filtered byte is from zero, read as signed: libpng's measure of a filter's fit. */
const weight = (v: number) => (v < 128 ? v : 256 - v);

/**
 * Each row filtered as libpng chooses by default: the filter whose bytes sum smallest (as signed), the
 * lowest type on a tie. The five sums are taken in one pass (the pictures' encoding is most of what they
 * cost the scan's own process).
 */
function filterRow(row: Buffer, prev: Buffer, bpp: number, out: Buffer): void {
  const n = row.length;
  let none = 0;
  let sub = 0;
  let up = 0;
  let average = 0;
  let paethSum = 0;
  for (let i = 0; i < n; i++) {
    const x = row[i];
    const a = i >= bpp ? row[i - bpp] : 0;
    const b = prev[i];
    const c = i >= bpp ? prev[i - bpp] : 0;
    none += weight(x);
    sub += weight((x - a) & 0xff);
    up += weight((x - b) & 0xff);
    average += weight((x - ((a + b) >> 1)) & 0xff);
    paethSum += weight((x - paeth(a, b, c)) & 0xff);
  }
  const sums = [none, sub, up, average, paethSum];
  let best = 0;
  for (let type = 1; type <= 4; type++) if (sums[type] < sums[best]) best = type;
  out[0] = best;
  for (let i = 0; i < n; i++) {
    const x = row[i];
    const a = i >= bpp ? row[i - bpp] : 0;
    const b = prev[i];
    out[i + 1] =
      best === 0
        ? x
        : best === 1
          ? (x - a) & 0xff
          : best === 2
            ? (x - b) & 0xff
            : best === 3
              ? (x - ((a + b) >> 1)) & 0xff
              : (x - paeth(a, b, i >= bpp ? prev[i - bpp] : 0)) & 0xff;
  }
}

/** One chunk: length, type, body and its checksum. */
export function pngChunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

export function encodePng(pixels: Pixels): Buffer {
  const { width, height, channels, data } = pixels;
  const stride = width * channels;
  const rows = Buffer.alloc((stride + 1) * height);
  let prev: Buffer = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const row = data.subarray(y * stride, (y + 1) * stride);
    filterRow(row, prev, channels, rows.subarray(y * (stride + 1), (y + 1) * (stride + 1)));
    prev = row;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, channels === 3 ? 2 : 6, 0, 0, 0], 8);
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
