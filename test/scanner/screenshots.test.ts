import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { defaultScanOptions, type ScanOptions } from '../../scanner/options.js';
import type { ScannedPage } from '../../scanner/page-scan.js';
import { scan } from '../../scanner/scan.js';
import { SCREENSHOT_MARGIN } from '../../scanner/clip.js';
import { parseScanSettings } from '../../scanner/settings.js';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium as chromiumPart, describeWith } from '../helpers/requirements.js';

// Pages on loopback with violating elements of colours found nowhere else on them; the pictures the
// scanner takes are decoded and their pixels read.

const html = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<style>body{margin:0;background:#fff} main{padding:100px}</style></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

/** An unnamed button (axe: button-name, a violation) filled with one colour, of a known size. */
const button = (colour: string, w: number, h: number) =>
  `<button style="background:${colour};width:${w}px;height:${h}px;border:0;padding:0;display:block;margin:20px 0"></button>`;

const PAGES: Record<string, string> = {
  '/colours': html('Colours', button('#ff00ff', 120, 40) + '<p>Text</p>' + button('#00b000', 64, 24)),
  '/framed': html(
    'Framed',
    '<iframe title="inner" src="/inner" style="border:0;width:300px;height:120px"></iframe>',
  ),
  '/inner': html('Inner', button('#0050ff', 50, 30)).replace('main{padding:100px}', 'main{padding:10px}'),
  '/many': html('Many', Array.from({ length: 30 }, () => button('#ff8000', 30, 10)).join('')),
  // Two on the first screen, two far below it, one below those: pictured from three scroll positions.
  '/tall': html(
    'Tall',
    button('#ff00ff', 120, 40) +
      button('#00b000', 64, 24) +
      '<div style="height:1500px"></div>' +
      button('#0050ff', 50, 30) +
      button('#e0e000', 90, 20) +
      '<div style="height:2000px"></div>' +
      button('#00e0e0', 40, 40),
  ),
  '/many2': html('Many 2', Array.from({ length: 30 }, () => button('#ff8000', 30, 10)).join('')),
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const body = PAGES[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'no');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function options(overrides: Partial<ScanOptions>): ScanOptions {
  return { ...defaultScanOptions(), chromePath: CHROMIUM_PATH, concurrency: 2, ...overrides };
}

function pixel(png: PNG, x: number, y: number): [number, number, number] {
  const i = (png.width * y + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
}

/** The element and the margin on each side; one pixel more where the element starts between pixels. */
function expectSize(png: PNG, w: number, h: number): void {
  for (const [got, want] of [
    [png.width, w + 2 * SCREENSHOT_MARGIN],
    [png.height, h + 2 * SCREENSHOT_MARGIN],
  ]) {
    expect(got - want).toBeGreaterThanOrEqual(0);
    expect(got - want).toBeLessThanOrEqual(1);
  }
}

const save = (name: string, png: Buffer) => {
  if (process.env.SCREENSHOT_DIR) fs.writeFileSync(`${process.env.SCREENSHOT_DIR}/${name}.png`, png);
};

describeWith(chromiumPart, 'element screenshots in Chromium', () => {
  test('each violating element is pictured with its margin: the PNG decodes to its size and colour', async () => {
    const run = await scan(options({ urls: [`${base}/colours`, `${base}/framed`] }));
    const [colours, framed] = run.pages as ScannedPage[];
    expect(colours.screenshots.map((s) => s.rule)).toEqual(['button-name', 'button-name']);
    const expected = [
      { colour: [255, 0, 255], w: 120, h: 40 },
      { colour: [0, 176, 0], w: 64, h: 24 },
    ];
    for (const [i, shot] of colours.screenshots.entries()) {
      save(`colours-${i}`, shot.png);
      const png = PNG.sync.read(shot.png);
      const { colour, w, h } = expected[i];
      expectSize(png, w, h);
      expect([shot.width, shot.height]).toEqual([png.width, png.height]);
      expect(pixel(png, png.width >> 1, png.height >> 1)).toEqual(colour);
      // The margin shows the page around the element (white), not the element.
      expect(pixel(png, 1, 1)).toEqual([255, 255, 255]);
      // axe's own selector for the element, as the service stores it.
      const node = colours.axe.violations.find((v) => v.id === 'button-name')!.nodes[i];
      expect(shot.selector).toBe(node.target.join(' |> '));
    }
    // An element inside an iframe: found through the frame, pictured where it is on the page.
    const inner = framed.screenshots.find((s) => s.rule === 'button-name')!;
    save('framed', inner.png);
    expect(inner.selector).toContain(' |> ');
    const png = PNG.sync.read(inner.png);
    expectSize(png, 50, 30);
    expect(pixel(png, png.width >> 1, png.height >> 1)).toEqual([0, 80, 255]);
  }, 60_000);

  test('elements on several screens of a long page: each pictured in its place, in axe order', async () => {
    const run = await scan(options({ urls: [`${base}/tall`] }));
    const shots = (run.pages[0] as ScannedPage).screenshots;
    const expected = [
      { colour: [255, 0, 255], w: 120, h: 40 },
      { colour: [0, 176, 0], w: 64, h: 24 },
      { colour: [0, 80, 255], w: 50, h: 30 },
      { colour: [224, 224, 0], w: 90, h: 20 },
      { colour: [0, 224, 224], w: 40, h: 40 },
    ];
    expect(shots).toHaveLength(expected.length);
    const nodes = (run.pages[0] as ScannedPage).axe.violations.find((v) => v.id === 'button-name')!.nodes;
    for (const [i, shot] of shots.entries()) {
      save(`tall-${i}`, shot.png);
      const png = PNG.sync.read(shot.png);
      expectSize(png, expected[i].w, expected[i].h);
      expect([shot.width, shot.height]).toEqual([png.width, png.height]);
      expect(pixel(png, png.width >> 1, png.height >> 1)).toEqual(expected[i].colour);
      expect(pixel(png, 1, 1)).toEqual([255, 255, 255]);
      expect(shot.selector).toBe(nodes[i].target.join(' |> '));
    }
  }, 60_000);

  test('at most the limits: per page, per scan, by size; none when turned off, and none of incomplete results', async () => {
    const urls = [`${base}/many`, `${base}/many2`];
    const limited = await scan(
      options({ urls, screenshots: { enabled: true, perPage: 6, perScan: 9, maxBytes: 100 * 1024 } }),
    );
    const counts = (limited.pages as ScannedPage[]).map((p) => p.screenshots.length);
    expect(counts.every((n) => n <= 6)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(9);

    const defaults = await scan(options({ urls: [`${base}/many`] }));
    expect((defaults.pages[0] as ScannedPage).screenshots).toHaveLength(20);
    const violations = (defaults.pages[0] as ScannedPage).axe.violations.flatMap((v) => v.nodes).length;
    expect(violations).toBeGreaterThan(20);

    const tiny = await scan(
      options({
        urls: [`${base}/colours`],
        screenshots: { enabled: true, perPage: 20, perScan: 500, maxBytes: 50 },
      }),
    );
    expect((tiny.pages[0] as ScannedPage).screenshots).toEqual([]);

    const off = await scan(
      options({
        urls: [`${base}/colours`],
        screenshots: { ...defaultScanOptions().screenshots, enabled: false },
      }),
    );
    expect((off.pages[0] as ScannedPage).screenshots).toEqual([]);
    // Four scans, each starting its own browser.
  }, 120_000);
});

test('the settings read the screenshot options and refuse limits past the service', () => {
  const fail = (name: string, problem: string) => new Error(`${name} ${problem}`);
  const read = (values: Record<string, string>) =>
    parseScanSettings((n) => values[n] ?? (n === 'urls' ? 'https://example.com/' : ''), fail)!.screenshots;
  expect(read({})).toEqual({ enabled: true, perPage: 20, perScan: 500, maxBytes: 100 * 1024 });
  expect(read({ screenshots: 'false', 'screenshots-per-page': '3', 'screenshot-max-kb': '40' })).toEqual({
    enabled: false,
    perPage: 3,
    perScan: 500,
    maxBytes: 40 * 1024,
  });
  expect(() => read({ 'screenshots-per-page': '21' })).toThrow('screenshots-per-page must be at most 20');
  expect(() => read({ 'screenshots-per-scan': '501' })).toThrow('at most 500');
  expect(() => read({ 'screenshot-max-kb': '101' })).toThrow('at most 100');
});
