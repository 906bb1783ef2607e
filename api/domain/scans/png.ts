import { crc32 } from 'node:zlib';

/**
 * What a PNG must be for the service to keep it, read from its chunks: the rules a decoder follows, so a
 * picture that passes here decodes in every browser and viewer. The pixels themselves are checked as they
 * inflate (`scanlineChecker`), within the size the header declares: a small file cannot unpack to more.
 */

/** Largest picture stored (bytes of the PNG file). */
export const SCREENSHOT_MAX_BYTES = 100 * 1024;
/** Largest side, and largest area, of a stored picture: a small file can declare a huge canvas. */
export const SCREENSHOT_MAX_SIDE = 4096;
export const SCREENSHOT_MAX_PIXELS = 4096 * 2048;
/**
 * Largest decoded image data (rows with their filter bytes): an 8-bit RGBA picture at the pixel limit fits,
 * a 16-bit one of that size (64 MiB) does not.
 */
export const SCREENSHOT_MAX_DECODED_BYTES = 33 * 1024 * 1024;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Colour types, the bit depths PNG allows for each, and its samples per pixel. */
const DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** The critical chunks PNG defines; a decoder must refuse any other whose name starts in upper case. */
const CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);
/** The chunks of an animated PNG: a screenshot is one still picture. */
const ANIMATION = new Set(['acTL', 'fcTL', 'fdAT']);
/** Adam7's seven passes: first column, first row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** Rows of one pass (the whole image when not interlaced), each a filter byte and `rowBytes` bytes. */
export interface ScanlinePass {
  rows: number;
  rowBytes: number;
}

/** A PNG whose chunks are sound: its size, its compressed image data and the rows it must inflate to. */
export interface PngLayout {
  width: number;
  height: number;
  idat: Buffer;
  passes: ScanlinePass[];
  decodedBytes: number;
}

export type PngProblem = { ok: false; problem: string };

interface Header {
  width: number;
  height: number;
  depth: number;
  colour: number;
  interlace: number;
}

function readHeader(body: Buffer): Header | string {
  const [depth, colour, compression, filter, interlace] = body.subarray(8, 13);
  if (!DEPTHS[colour]?.includes(depth)) return 'has an invalid colour type or bit depth';
  if (compression !== 0 || filter !== 0 || interlace > 1) {
    return 'has an invalid compression, filter or interlace method';
  }
  const header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), depth, colour, interlace };
  if (header.width < 1 || header.height < 1) return 'has no pixels';
  const { width, height } = header;
  if (width > SCREENSHOT_MAX_SIDE || height > SCREENSHOT_MAX_SIDE || width * height > SCREENSHOT_MAX_PIXELS) {
    return `is ${width}×${height} pixels, larger than the limit`;
  }
  return header;
}

/** The rows the image data must hold: one pass, or Adam7's seven (a pass without pixels has no rows). */
function passesOf(h: Header): ScanlinePass[] {
  const bits = h.depth * CHANNELS[h.colour];
  const rowBytes = (columns: number) => Math.ceil((columns * bits) / 8);
  if (h.interlace === 0) return [{ rows: h.height, rowBytes: rowBytes(h.width) }];
  const passes: ScanlinePass[] = [];
  for (const [x0, y0, dx, dy] of ADAM7) {
    const columns = Math.ceil(Math.max(0, h.width - x0) / dx);
    const rows = Math.ceil(Math.max(0, h.height - y0) / dy);
    if (columns > 0 && rows > 0) passes.push({ rows, rowBytes: rowBytes(columns) });
  }
  return passes;
}

/** What the chunks seen so far allow next; a problem ends the reading. */
interface ChunkState {
  header?: Header;
  palette: boolean;
  idat: Buffer[];
  /** A chunk other than IDAT came after image data: more image data would be a second, separate run. */
  idatEnded: boolean;
}

function acceptChunk(state: ChunkState, type: string, body: Buffer, index: number): string | undefined {
  if (!/^[A-Za-z]{4}$/.test(type)) return 'has a chunk whose name is not four letters';
  if (index === 0) {
    if (type !== 'IHDR' || body.length !== 13) return 'does not start with its header (IHDR)';
    const header = readHeader(body);
    if (typeof header === 'string') return header;
    state.header = header;
    return undefined;
  }
  if (type === 'IHDR') return 'has a second header';
  if (ANIMATION.has(type)) return 'is an animation (APNG); a picture is one still image';
  if (type[0] < 'a' && !CRITICAL.has(type)) return `has an unknown critical chunk "${type}"`;
  if (type === 'PLTE') return acceptPalette(state, body);
  if (type === 'IDAT') {
    if (state.idatEnded) return 'has its image data (IDAT) in separate runs';
    if (state.header!.colour === 3 && !state.palette) return 'uses a palette but has none (PLTE)';
    state.idat.push(body);
  } else if (state.idat.length > 0) state.idatEnded = true;
  return undefined;
}

function acceptPalette(state: ChunkState, body: Buffer): string | undefined {
  const { colour, depth } = state.header!;
  if (colour === 0 || colour === 4) return 'has a palette (PLTE) its colour type does not allow';
  if (state.palette || state.idat.length > 0) return 'has a palette (PLTE) out of place';
  const entries = body.length / 3;
  const most = colour === 3 ? 2 ** depth : 256;
  if (!Number.isInteger(entries) || entries < 1 || entries > most) return 'has an invalid palette (PLTE)';
  state.palette = true;
  return undefined;
}

/**
 * Reads a PNG's chunks without inflating them: the signature, a valid IHDR first and within the size
 * limits, every chunk inside the file with a correct CRC and a name of four letters, no unknown critical
 * chunk, no animation, a palette where the colour type needs one, image data in one run, and IEND last.
 */
export function readPng(png: Buffer): PngLayout | PngProblem {
  const bad = (problem: string): PngProblem => ({ ok: false, problem });
  if (png.length > SCREENSHOT_MAX_BYTES) return bad(`is larger than ${SCREENSHOT_MAX_BYTES} bytes`);
  if (png.length < 8 + 25 + 12 || !png.subarray(0, 8).equals(SIGNATURE)) return bad('is not a PNG file');
  const state: ChunkState = { palette: false, idat: [], idatEnded: false };
  let offset = 8;
  for (let index = 0; ; index++) {
    if (offset + 12 > png.length) return bad('ends inside a chunk');
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > png.length || end > png.length) return bad('has a chunk longer than the file');
    if (crc32(png.subarray(offset + 4, offset + 8 + length)) !== png.readUInt32BE(offset + 8 + length)) {
      return bad('has a chunk with a wrong checksum');
    }
    const problem = acceptChunk(state, type, png.subarray(offset + 8, offset + 8 + length), index);
    if (problem) return bad(problem);
    offset = end;
    if (type === 'IEND') break;
  }
  if (offset !== png.length) return bad('has bytes after its end (IEND)');
  if (state.idat.length === 0) return bad('has no image data (IDAT)');
  const header = state.header!;
  const passes = passesOf(header);
  const decodedBytes = passes.reduce((sum, p) => sum + p.rows * (1 + p.rowBytes), 0);
  if (decodedBytes > SCREENSHOT_MAX_DECODED_BYTES) {
    return bad(`would decode to ${decodedBytes} bytes, more than ${SCREENSHOT_MAX_DECODED_BYTES}`);
  }
  const { width, height } = header;
  return { width, height, idat: Buffer.concat(state.idat), passes, decodedBytes };
}

/** Checks inflated image data as it arrives: every row's filter byte, and exactly the declared rows. */
export interface ScanlineChecker {
  /** A problem as soon as the data holds an unknown filter or more bytes than declared. */
  feed(chunk: Buffer): string | undefined;
  /** A problem when the data ended before the last row. */
  finish(): string | undefined;
}

export function scanlineChecker(passes: ScanlinePass[]): ScanlineChecker {
  let pass = 0;
  let row = 0;
  /** Bytes still to come of the current row; 0 at a row's filter byte. */
  let left = 0;
  let atFilter = true;
  return {
    feed(chunk) {
      for (let i = 0; i < chunk.length;) {
        if (pass === passes.length) return 'holds more image data than its size declares';
        if (atFilter) {
          if (chunk[i] > 4) return 'has a row with an unknown filter type';
          i += 1;
          atFilter = false;
          left = passes[pass].rowBytes;
        } else {
          const take = Math.min(left, chunk.length - i);
          i += take;
          left -= take;
        }
        if (!atFilter && left === 0) {
          atFilter = true;
          row += 1;
          if (row === passes[pass].rows) [pass, row] = [pass + 1, 0];
        }
      }
      return undefined;
    },
    finish() {
      return pass === passes.length ? undefined : 'holds less image data than its size declares';
    },
  };
}
