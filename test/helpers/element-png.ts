import { PNG } from 'pngjs';

/** Margin of the pictures drawn here, as the scanner leaves around an element. */
export const DRAWN_MARGIN = 8;

/**
 * A PNG like the scanner's: an element of one colour (`w`×`h`) with a white margin around it, encoded by
 * pngjs (not by the code under test).
 */
export function elementPng(rgb: [number, number, number], w: number, h: number): Buffer {
  const png = new PNG({ width: w + 2 * DRAWN_MARGIN, height: h + 2 * DRAWN_MARGIN });
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const inside = x >= DRAWN_MARGIN && x < DRAWN_MARGIN + w && y >= DRAWN_MARGIN && y < DRAWN_MARGIN + h;
      const i = (png.width * y + x) * 4;
      const [r, g, b] = inside ? rgb : [255, 255, 255];
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
