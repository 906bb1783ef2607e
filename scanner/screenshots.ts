import type { AxeResults } from 'axe-core';
import type { CDPSession, FrameLocator, Locator, Page } from 'playwright-core';
import { selectorOf } from './selector.js';

/** A picture of one violating element, with the page's margin around it. */
export interface ElementShot {
  rule: string;
  /** The element as the service stores it (frames joined with ` |> `, shadow roots with ` >>> `). */
  selector: string;
  png: Buffer;
  width: number;
  height: number;
}

export interface ScreenshotLimits {
  enabled: boolean;
  perPage: number;
  perScan: number;
  maxBytes: number;
}

/** The service's limits, and the defaults: 20 a page, 500 a scan, 100 KB each. */
export const SCREENSHOTS_PER_PAGE = 20;
export const SCREENSHOTS_PER_SCAN = 500;
export const SCREENSHOT_MAX_KB = 100;
/** CSS pixels of the page shown around the element, so it is seen in its place. */
export const SCREENSHOT_MARGIN = 8;
/** Time one element may take to scroll into view and be pictured, and all of a page's pictures. */
const SHOT_TIMEOUT_MS = 3_000;
const PAGE_SHOTS_MS = 20_000;

export function defaultScreenshotLimits(): ScreenshotLimits {
  return {
    enabled: true,
    perPage: SCREENSHOTS_PER_PAGE,
    perScan: SCREENSHOTS_PER_SCAN,
    maxBytes: SCREENSHOT_MAX_KB * 1024,
  };
}

/** Pictures the whole scan may still take: shared by the workers, so the scan stays under its limit. */
export interface ShotBudget {
  left: number;
}

type Target = ReadonlyArray<string | readonly string[]>;

/**
 * The element of an axe target: frames by their selectors, then the element, through open shadow roots
 * by chaining (Playwright's CSS reaches into them). Null for a frame inside a shadow root.
 */
function locate(page: Page, target: Target): Locator | null {
  let scope: Page | FrameLocator = page;
  for (const frame of target.slice(0, -1)) {
    if (typeof frame !== 'string') return null;
    scope = scope.frameLocator(frame);
  }
  const last = target[target.length - 1];
  if (last === undefined) return null;
  const path = typeof last === 'string' ? [last] : [...last];
  let element: Locator = scope.locator(path[0]);
  for (const part of path.slice(1)) element = element.locator(part);
  return element.first();
}

type Box = { x: number; y: number; width: number; height: number };

/** The element's box with the margin around it, cut to the viewport (in the viewport's coordinates). */
function clipAround(box: Box | null, viewport: { width: number; height: number } | null): Box | null {
  if (!box || !viewport || box.width < 1 || box.height < 1) return null;
  const x = Math.max(0, Math.floor(box.x - SCREENSHOT_MARGIN));
  const y = Math.max(0, Math.floor(box.y - SCREENSHOT_MARGIN));
  const right = Math.min(viewport.width, Math.ceil(box.x + box.width + SCREENSHOT_MARGIN));
  const bottom = Math.min(viewport.height, Math.ceil(box.y + box.height + SCREENSHOT_MARGIN));
  return right - x < 1 || bottom - y < 1 ? null : { x, y, width: right - x, height: bottom - y };
}

/** One element's picture: scrolled into view, the margin around it, cut to the viewport. */
async function shoot(page: Page, element: Locator, maxBytes: number): Promise<Buffer | null> {
  await element.scrollIntoViewIfNeeded({ timeout: SHOT_TIMEOUT_MS });
  const clip = clipAround(await element.boundingBox({ timeout: SHOT_TIMEOUT_MS }), page.viewportSize());
  if (!clip) return null;
  const png = await page.screenshot({
    clip,
    type: 'png',
    scale: 'css',
    animations: 'disabled',
    caret: 'hide',
    timeout: SHOT_TIMEOUT_MS,
  });
  // Too large to send: left out rather than cut, which could show the wrong part of the element.
  return png.length <= maxBytes ? png : null;
}

function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** What the page says of one element of its top document, scrolled into view. */
interface TopBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Where the viewport is in the page: a capture's clip is in the page's coordinates. */
  left: number;
  top: number;
}

/**
 * In the page: the element of a target in the top document (through open shadow roots, as axe names
 * them), scrolled into view where it is not (centred, as Playwright scrolls), and its box. The page's first
 * call also does once what Playwright does before each of its screenshots: the caret hidden, animations
 * finished or stopped, web fonts loaded. Self-contained: it runs in the page.
 */
async function topBox(arg: { path: string[]; prepare: boolean }): Promise<TopBox | null> {
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
  let root: Root = doc;
  let el: El | null = null;
  for (const [i, selector] of arg.path.entries()) {
    el = root.querySelector(selector);
    if (!el) return null;
    if (i < arg.path.length - 1) {
      if (!el.shadowRoot) return null;
      root = el.shadowRoot;
    }
  }
  if (!el || !el.isConnected) return null;
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  else el.scrollIntoView({ block: 'center', inline: 'center' });
  const r = el.getBoundingClientRect();
  const left = g.visualViewport?.pageLeft ?? g.scrollX;
  const top = g.visualViewport?.pageTop ?? g.scrollY;
  return { x: r.x, y: r.y, width: r.width, height: r.height, left, top };
}

/** Rejects after `ms`: a page that stops answering costs the pictures, never the scan. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const sessions = new WeakMap<Page, Promise<CDPSession>>();

/**
 * An element of the top document pictured in two round trips to the browser (its box, then the capture
 * of that clip) instead of Playwright's locator and screenshot, which wait for the element to be stable,
 * prepare and restore every frame, and ask for the page's metrics around each picture. Chromium's own
 * capture: the scanner only drives Chromium, whose contexts keep a device scale factor of 1.
 */
async function shootInTop(
  page: Page,
  path: string[],
  prepare: boolean,
  maxBytes: number,
): Promise<Buffer | null> {
  const box = await within(SHOT_TIMEOUT_MS, page.evaluate(topBox, { path, prepare }));
  const inView = clipAround(box, page.viewportSize());
  if (!box || !inView) return null;
  let session = sessions.get(page);
  if (!session) sessions.set(page, (session = page.context().newCDPSession(page)));
  const clip = { ...inView, x: box.left + inView.x, y: box.top + inView.y, scale: 1 };
  const { data } = await within(
    SHOT_TIMEOUT_MS,
    (await session).send('Page.captureScreenshot', { format: 'png', clip, captureBeyondViewport: false }),
  );
  const png = Buffer.from(data, 'base64');
  // Too large to send: left out rather than cut, which could show the wrong part of the element.
  return png.length <= maxBytes ? png : null;
}

/**
 * Pictures of the page's violating elements (never of incomplete results), in axe's order, at most
 * `perPage` of the page and what the scan's budget has left. An element that cannot be pictured (hidden,
 * gone, outside the viewport, too large) is skipped: pictures help, they never fail a scan. Elements of
 * the top document take the short way; those in frames are found through Playwright's frame locators.
 */
export async function shootViolations(
  page: Page,
  axe: AxeResults,
  limits: ScreenshotLimits,
  budget: ShotBudget,
): Promise<ElementShot[]> {
  const out: ElementShot[] = [];
  if (!limits.enabled) return out;
  const seen = new Set<string>();
  const until = Date.now() + PAGE_SHOTS_MS;
  let prepared = false;
  for (const rule of axe.violations) {
    for (const node of rule.nodes) {
      if (out.length >= limits.perPage || budget.left <= 0 || Date.now() > until) return out;
      const target = node.target as unknown as Target;
      const selector = selectorOf(target as unknown[]);
      const key = `${rule.id}\n${selector}`;
      if (!selector || seen.has(key)) continue;
      seen.add(key);
      const last = target[target.length - 1];
      const inTop = target.length === 1 && last !== undefined;
      const element = inTop ? null : locate(page, target);
      if (!inTop && !element) continue;
      // Taken from the budget before the picture, which other workers wait on meanwhile.
      budget.left--;
      const path = typeof last === 'string' ? [last] : [...(last ?? [])];
      const png = await (
        element ? shoot(page, element, limits.maxBytes) : shootInTop(page, path, !prepared, limits.maxBytes)
      ).catch(() => null);
      prepared ||= inTop;
      if (!png) {
        budget.left++;
        continue;
      }
      out.push({ rule: rule.id, selector, png, ...pngSize(png) });
    }
  }
  return out;
}
