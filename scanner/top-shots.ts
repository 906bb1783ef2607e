import type { Page } from 'playwright-core';
import { cdpOf, evaluateInTop } from './cdp.js';
import { clipAround, inView, SHOT_TIMEOUT_MS, union, within, type Box, type Viewport } from './clip.js';
import { cropPixels, decodePng, encodePng } from './png.js';

/** What the page says of the elements still to picture, after scrolling the first found into view. */
interface TopView {
  /** Each element's box in the viewport's coordinates, null where it is not found. */
  boxes: (Box | null)[];
  /** Where the viewport is in the page: a capture's clip is in the page's coordinates. */
  left: number;
  top: number;
}

/**
 * In the page: the elements of targets in the top document (through open shadow roots, as axe names
 * them); the first one found is scrolled into view where it is not (centred, as Playwright scrolls), then
 * every box is read. With `prepare` it first does what Playwright does before each of its screenshots:
 * the caret hidden, animations finished or stopped, web fonts loaded. Self-contained: it runs in the page.
 */
async function topBoxes(arg: { paths: string[][]; prepare: boolean }): Promise<TopView> {
  interface El {
    shadowRoot: Root | null;
    isConnected: boolean;
    style: { setProperty(n: string, v: string, p: string): void };
    scrollIntoViewIfNeeded?: (center: boolean) => void;
    scrollIntoView(o: unknown): void;
    getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  }
  interface Root {
    querySelector(s: string): El | null;
    querySelectorAll(s: string): ArrayLike<El>;
  }
  const g = globalThis as unknown as {
    document: Root & {
      fonts?: { ready: Promise<unknown> };
      getAnimations?: () => Array<{
        effect: { getComputedTiming(): { endTime?: unknown } } | null;
        finish(): void;
        cancel(): void;
      }>;
    };
    visualViewport: { pageLeft: number; pageTop: number } | null;
    scrollX: number;
    scrollY: number;
  };
  const doc = g.document;
  if (arg.prepare) {
    for (const el of Array.from(doc.querySelectorAll('input,textarea,[contenteditable]')))
      el.style.setProperty('caret-color', 'transparent', 'important');
    for (const animation of doc.getAnimations?.() ?? []) {
      try {
        if (Number.isFinite(animation.effect?.getComputedTiming().endTime)) animation.finish();
        else animation.cancel();
      } catch {
        // An animation that cannot be finished is pictured as it is.
      }
    }
    await doc.fonts?.ready;
  }
  // Plain loops, no named inner functions: bundlers wrap those in helpers the page does not have.
  const elements: (El | null)[] = [];
  for (const path of arg.paths) {
    let root: Root | null = doc;
    let el: El | null = null;
    for (const [i, selector] of path.entries()) {
      el = root ? root.querySelector(selector) : null;
      root = i < path.length - 1 && el ? el.shadowRoot : null;
    }
    elements.push(el && el.isConnected ? el : null);
  }
  const first = elements.find((el) => el !== null);
  if (first?.scrollIntoViewIfNeeded) first.scrollIntoViewIfNeeded(true);
  else first?.scrollIntoView({ block: 'center', inline: 'center' });
  const boxes = elements.map((el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  const left = g.visualViewport?.pageLeft ?? g.scrollX;
  const top = g.visualViewport?.pageTop ?? g.scrollY;
  return { boxes, left, top };
}

/**
 * Chromium's own capture of a clip of the viewport (the scanner's contexts keep a device scale of 1), not
 * Playwright's locator and screenshot, which wait for the element to be stable, prepare and restore every
 * frame, and ask for the page's metrics around each picture.
 */
async function capture(page: Page, clip: Box, view: TopView, fast: boolean): Promise<Buffer> {
  const { data } = await within(
    SHOT_TIMEOUT_MS,
    (await cdpOf(page)).send('Page.captureScreenshot', {
      format: 'png',
      clip: { ...clip, x: view.left + clip.x, y: view.top + clip.y, scale: 1 },
      captureBeyondViewport: false,
      // The capture is decoded and cut here, so its size does not matter; the pictures are encoded again.
      ...(fast ? { optimizeForSpeed: true } : {}),
    }),
  );
  return Buffer.from(data, 'base64');
}

/**
 * The pictures of one view: one capture of the clip that holds them all, cut into each element's picture;
 * a single clip is captured as it is. Where the capture cannot be read, each clip is captured alone.
 */
async function shootView(page: Page, clips: Box[], view: TopView): Promise<Buffer[]> {
  if (clips.length > 1) {
    const whole = union(clips);
    const pixels = decodePng(await capture(page, whole, view, true));
    if (pixels && pixels.width === whole.width && pixels.height === whole.height)
      return clips.map((c) => encodePng(cropPixels(pixels, c.x - whole.x, c.y - whole.y, c.width, c.height)));
  }
  const out: Buffer[] = [];
  for (const clip of clips) out.push(await capture(page, clip, view, false));
  return out;
}

/**
 * Pictures of elements of the top document, in the order given (null where one cannot be pictured).
 * Each round: one call into the page scrolls the first element still to picture into view and reads
 * every box, then the elements wholly in view (as they would be without scrolling) are pictured together
 * from one capture: two round trips a screen instead of two an element.
 */
export async function shootTopElements(
  page: Page,
  paths: string[][],
  o: { prepare: boolean; maxBytes: number; until: number },
): Promise<(Buffer | null)[]> {
  const out: (Buffer | null)[] = paths.map(() => null);
  let pending = paths.map((_, i) => i);
  let prepare = o.prepare;
  while (pending.length > 0 && Date.now() <= o.until) {
    const view = await within(
      SHOT_TIMEOUT_MS,
      evaluateInTop(page, topBoxes, { paths: pending.map((i) => paths[i]), prepare }),
    );
    prepare = false;
    const viewport: Viewport | null = page.viewportSize();
    const firstFound = view.boxes.findIndex((b) => b !== null);
    if (firstFound < 0 || !viewport) break;
    const now = pending.filter((_, j) => {
      const box = view.boxes[j];
      return j === firstFound || (box !== null && inView(box, viewport));
    });
    const clips = now.map((i) => clipAround(view.boxes[pending.indexOf(i)], viewport));
    const shown = now.filter((_, k) => clips[k] !== null);
    const pngs = await shootView(
      page,
      clips.filter((c): c is Box => c !== null),
      view,
    );
    // Too large to send: left out rather than cut, which could show the wrong part of the element.
    shown.forEach((i, k) => (out[i] = pngs[k].length <= o.maxBytes ? pngs[k] : null));
    pending = pending.filter((i, j) => view.boxes[j] !== null && !now.includes(i));
  }
  return out;
}
