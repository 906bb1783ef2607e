import { deflateSync, inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { checkPicture } from '../../../api/services/scans/picture-check.js';
import { pngChunk as chunk } from '../../../scanner/png.js';
import { hostilePngs, pngFile, pngHeader } from '../../helpers/hostile-png.js';

// pngjs, a separate decoder, is the ground truth: what it reads the service takes, and the undecodable
// pictures the service refuses it cannot read either. Animations, oversize canvases and pictures cut short
// (which pngjs shows as far as they go) are the service's own rules. Broken zlib streams are judged by zlib
// (test/helpers/hostile-png.ts says why).

const pngjsReads = (png: Buffer) => {
  try {
    PNG.sync.read(png);
    return true;
  } catch {
    return false;
  }
};

test('pictures pngjs writes, in every colour type and depth it writes, are taken with their size', async () => {
  for (const colorType of [0, 2, 4, 6] as const) {
    for (const bitDepth of [8, 16] as const) {
      const png = new PNG({ width: 13, height: 7, colorType, bitDepth, inputHasAlpha: true });
      for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 37) & 0xff;
      const written = PNG.sync.write(png, { colorType, bitDepth, inputHasAlpha: true });
      expect(await checkPicture(written)).toEqual({ ok: true, width: 13, height: 7 });
    }
  }
});

test('a palette picture and an interlaced one, both read by pngjs, are taken', async () => {
  // 3×2, one bit per pixel: each row is a filter byte and one byte of pixels.
  const palette = pngFile(
    pngHeader(3, 2, 1, 3),
    chunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255])),
    chunk('IDAT', deflateSync(Buffer.from([0, 0b10100000, 0, 0b01000000]))),
  );
  // 3×3 grey, Adam7: passes 1, 4, 5, 6 and 7 hold pixels (rows of 1, 1, 2, 1, 1 and 3 pixels).
  const rows = [1, 1, 2, 1, 1, 3].reduce((sum, n) => sum + 1 + n, 0);
  const interlaced = pngFile(pngHeader(3, 3, 8, 0, 1), chunk('IDAT', deflateSync(Buffer.alloc(rows, 0))));
  for (const [png, size] of [
    [palette, [3, 2]],
    [interlaced, [3, 3]],
  ] as const) {
    expect(pngjsReads(png)).toBe(true);
    expect(await checkPicture(png)).toEqual({ ok: true, width: size[0], height: size[1] });
  }
});

test('hostile pictures are refused, each with what is wrong with it', async () => {
  for (const { what, png, problem, undecodable } of hostilePngs()) {
    expect(png.length).toBeLessThan(100 * 1024);
    const check = await checkPicture(png);
    expect({ what, ok: check.ok }).toEqual({ what, ok: false });
    expect(check.ok ? '' : check.problem).toMatch(problem);
    if (undecodable) expect({ what, pngjs: pngjsReads(png) }).toEqual({ what, pngjs: false });
  }
});

test('the image data the service calls undecodable, zlib itself cannot inflate', () => {
  const zlibCases = hostilePngs().filter(({ problem }) => problem.source === 'does not decode');
  expect(zlibCases.map(({ what }) => what)).toEqual([
    'image data that is not zlib',
    'a zlib stream cut short',
  ]);
  for (const { png } of zlibCases) {
    // The IDAT chunk's data: after the signature (8), IHDR (25) and IDAT's length and type (8).
    const length = png.readUInt32BE(33);
    expect(() => inflateSync(png.subarray(41, 41 + length))).toThrow();
  }
});
