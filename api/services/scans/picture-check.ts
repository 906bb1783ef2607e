import { createInflate } from 'node:zlib';
import { readPng, scanlineChecker, type PngLayout } from '../../domain/scans/png.js';

export type PictureCheck = { ok: true; width: number; height: number } | { ok: false; problem: string };

/**
 * Inflates the image data as a stream, off the event loop, checking each row as it comes and keeping none:
 * the first byte past the declared rows ends it, so a small file that unpacks to far more costs no more
 * than the picture its header declares.
 */
function inflateChecked(layout: PngLayout): Promise<string | undefined> {
  const rows = scanlineChecker(layout.passes);
  return new Promise((resolve) => {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    let settled = false;
    const settle = (problem: string | undefined) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(problem);
    };
    inflate.on('data', (chunk: Buffer) => {
      const problem = rows.feed(chunk);
      if (problem) settle(problem);
    });
    inflate.on('error', () => settle('has image data that does not decode'));
    inflate.on('end', () => settle(rows.finish()));
    inflate.end(layout.idat);
  });
}

/** A PNG the service may keep: sound chunks (`readPng`), and image data that decodes to the declared rows. */
export async function checkPicture(png: Buffer): Promise<PictureCheck> {
  const layout = readPng(png);
  if (!('idat' in layout)) return layout;
  const problem = await inflateChecked(layout);
  return problem ? { ok: false, problem } : { ok: true, width: layout.width, height: layout.height };
}
