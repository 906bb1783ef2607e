import { PNG } from 'pngjs';
import { checkPicture } from '../../api/services/scans/picture-check.js';
import { cropPixels, decodePng, encodePng, type Pixels } from '../../scanner/png.js';

// pngjs, a separate codec, is the ground truth: what we write it must read, and what it writes (each of
// PNG's row filters) we must read, pixel for pixel.

/** Pixels with flat areas, gradients and noise, so every row filter has work to do. */
function sample(width: number, height: number, channels: 3 | 4, seed = 7): Pixels {
  const data = Buffer.alloc(width * height * channels);
  let s = seed;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      const i = (y * width + x) * channels;
      const flat = x < width / 3;
      data[i] = flat ? 200 : (x * 3) & 0xff;
      data[i + 1] = flat ? 30 : (y * 5) & 0xff;
      data[i + 2] = flat ? 90 : s & 0xff;
      if (channels === 4) data[i + 3] = y % 3 === 0 ? 255 : (s >> 8) & 0xff;
    }
  }
  return { width, height, channels, data };
}

/** The same pixels as RGBA, the form pngjs decodes to. */
function rgba(p: Pixels): Buffer {
  if (p.channels === 4) return p.data;
  const out = Buffer.alloc(p.width * p.height * 4);
  for (let i = 0, j = 0; i < p.data.length; i += 3, j += 4) {
    p.data.copy(out, j, i, i + 3);
    out[j + 3] = 255;
  }
  return out;
}

function pngjsEncode(p: Pixels, filterType: number): Buffer {
  const png = new PNG({ width: p.width, height: p.height });
  png.data = rgba(p);
  return PNG.sync.write(png, {
    filterType,
    colorType: p.channels === 3 ? 2 : 6,
    inputHasAlpha: true,
  });
}

test('what we encode, pngjs decodes to the same pixels (RGB and RGBA, odd sizes)', async () => {
  for (const [w, h, c] of [
    [1, 1, 4],
    [37, 19, 4],
    [64, 40, 3],
    [5, 200, 3],
  ] as const) {
    const pixels = sample(w, h, c);
    const encoded = encodePng(pixels);
    const png = PNG.sync.read(encoded);
    expect([png.width, png.height]).toEqual([w, h]);
    // And the service takes it as a picture (chunks, checksums, image data that decodes).
    expect(await checkPicture(encoded)).toEqual({ ok: true, width: w, height: h });
    expect(Buffer.compare(png.data, rgba(pixels))).toBe(0);
  }
});

test('what pngjs encodes with each row filter, we decode to the same pixels', () => {
  for (const channels of [3, 4] as const) {
    const pixels = sample(41, 23, channels);
    for (const filterType of [0, 1, 2, 3, 4, -1]) {
      const decoded = decodePng(pngjsEncode(pixels, filterType));
      expect(decoded).not.toBeNull();
      expect(decoded!.channels).toBe(channels);
      expect(Buffer.compare(decoded!.data, pixels.data)).toBe(0);
    }
  }
});

test('a crop is the rectangle pngjs copies out of the same image', () => {
  const pixels = sample(50, 30, 4);
  const source = PNG.sync.read(pngjsEncode(pixels, -1));
  const expected = new PNG({ width: 12, height: 9 });
  PNG.bitblt(source, expected, 20, 14, 12, 9, 0, 0);
  const crop = cropPixels(pixels, 20, 14, 12, 9);
  expect([crop.width, crop.height]).toEqual([12, 9]);
  expect(Buffer.compare(crop.data, expected.data)).toBe(0);
  // And through our encoder, as the scanner sends it.
  expect(Buffer.compare(PNG.sync.read(encodePng(crop)).data, expected.data)).toBe(0);
});

test('what it was not made for reads as null: other depths and colour types, interlacing, damage', () => {
  const pixels = sample(8, 8, 4);
  const grey = new PNG({ width: 8, height: 8, colorType: 0, inputColorType: 6 });
  grey.data = pixels.data;
  expect(decodePng(PNG.sync.write(grey, { colorType: 0, inputHasAlpha: true }))).toBeNull();
  const deep = new PNG({ width: 8, height: 8 });
  deep.data = pixels.data;
  expect(decodePng(PNG.sync.write(deep, { bitDepth: 16 }))).toBeNull();
  const good = encodePng(pixels);
  const interlaced = Buffer.from(good);
  interlaced[28] = 1; // IHDR's interlace method
  expect(decodePng(interlaced)).toBeNull();
  expect(decodePng(good.subarray(0, 40))).toBeNull();
  expect(decodePng(Buffer.from('not a png at all, not at all'))).toBeNull();
});
