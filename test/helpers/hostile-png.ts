import { deflateSync } from 'node:zlib';
import { pngChunk as chunk } from '../../scanner/png.js';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An IHDR chunk. */
export function pngHeader(
  width: number,
  height: number,
  depth: number,
  colour: number,
  interlace = 0,
): Buffer {
  const body = Buffer.alloc(13);
  body.writeUInt32BE(width, 0);
  body.writeUInt32BE(height, 4);
  body.set([depth, colour, 0, 0, interlace], 8);
  return chunk('IHDR', body);
}

/** A PNG file of these chunks after its header, ended by IEND. */
export const pngFile = (ihdr: Buffer, ...chunks: Buffer[]) =>
  Buffer.concat([SIGNATURE, ihdr, ...chunks, chunk('IEND', Buffer.alloc(0))]);

/** 4×4 8-bit grey, rows unfiltered: the smallest sound picture, to spoil one thing at a time. */
const grey = (data = deflateSync(Buffer.alloc(4 * 5)), ...before: Buffer[]) =>
  pngFile(pngHeader(4, 4, 8, 0), ...before, chunk('IDAT', data));

/**
 * PNGs whose chunks are all well formed (checksums right, IEND last) but which must not be kept: what each
 * is, the file, and the words of its refusal. `undecodable`: pngjs cannot read it either. pngjs is no judge
 * of a broken zlib stream: on this Node its synchronous inflate misses zlib's errors and hands back whatever
 * its output buffer held, so the two zlib cases are checked against zlib itself.
 */
export function hostilePngs(): Array<{ what: string; png: Buffer; problem: RegExp; undecodable: boolean }> {
  const frames = Buffer.alloc(8);
  frames.writeUInt32BE(2 ** 31 - 1, 0);
  // About 65 KB of zlib that inflate to 64 MiB.
  const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  const filterFive = Buffer.concat([Buffer.from([5, 0, 0, 0, 0]), Buffer.alloc(15)]);
  return [
    {
      what: 'image data that is not zlib',
      png: grey(Buffer.from('not zlib')),
      problem: /does not decode/,
      undecodable: false,
    },
    {
      what: 'a row filter that does not exist',
      png: grey(deflateSync(filterFive)),
      problem: /filter/,
      undecodable: true,
    },
    {
      what: 'a palette picture without its palette',
      png: pngFile(pngHeader(4, 4, 8, 3), chunk('IDAT', deflateSync(Buffer.alloc(20)))),
      problem: /palette/,
      undecodable: true,
    },
    {
      what: 'an unknown critical chunk',
      png: grey(undefined, chunk('QUUX', Buffer.from('x'))),
      problem: /unknown critical chunk "QUUX"/,
      undecodable: true,
    },
    {
      what: 'a zlib stream cut short',
      png: grey(deflateSync(Buffer.alloc(20)).subarray(0, 8)),
      problem: /does not decode/,
      undecodable: false,
    },
    {
      what: 'fewer rows than declared',
      png: grey(deflateSync(Buffer.alloc(15))),
      problem: /less image data/,
      undecodable: false,
    },
    { what: '65 KB that inflate to 64 MiB', png: grey(bomb), problem: /more image data/, undecodable: false },
    {
      what: 'an animation of 2^31−1 frames',
      png: grey(undefined, chunk('acTL', frames)),
      problem: /animation/,
      undecodable: false,
    },
    {
      what: 'a 16-bit RGBA canvas at the pixel limit (64 MiB decoded)',
      png: pngFile(pngHeader(4096, 2048, 16, 6), chunk('IDAT', deflateSync(Buffer.alloc(16)))),
      problem: /would decode to/,
      undecodable: false,
    },
  ];
}
