import type { AxeResults } from 'axe-core';
import type { FrameLocator, Locator, Page } from 'playwright-core';
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

/** One element's picture: scrolled into view, the margin around it, cut to the viewport. */
async function shoot(page: Page, element: Locator, maxBytes: number): Promise<Buffer | null> {
  await element.scrollIntoViewIfNeeded({ timeout: SHOT_TIMEOUT_MS });
  const box = await element.boundingBox({ timeout: SHOT_TIMEOUT_MS });
  const viewport = page.viewportSize();
  if (!box || !viewport || box.width < 1 || box.height < 1) return null;
  const x = Math.max(0, Math.floor(box.x - SCREENSHOT_MARGIN));
  const y = Math.max(0, Math.floor(box.y - SCREENSHOT_MARGIN));
  const right = Math.min(viewport.width, Math.ceil(box.x + box.width + SCREENSHOT_MARGIN));
  const bottom = Math.min(viewport.height, Math.ceil(box.y + box.height + SCREENSHOT_MARGIN));
  if (right - x < 1 || bottom - y < 1) return null;
  const png = await page.screenshot({
    clip: { x, y, width: right - x, height: bottom - y },
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

/**
 * Pictures of the page's violating elements (never of incomplete results), in axe's order, at most
 * `perPage` of the page and what the scan's budget has left. An element that cannot be pictured (hidden,
 * gone, outside the viewport, too large) is skipped: pictures help, they never fail a scan.
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
  for (const rule of axe.violations) {
    for (const node of rule.nodes) {
      if (out.length >= limits.perPage || budget.left <= 0 || Date.now() > until) return out;
      const target = node.target as unknown as Target;
      const selector = selectorOf(target as unknown[]);
      const key = `${rule.id}\n${selector}`;
      if (!selector || seen.has(key)) continue;
      seen.add(key);
      const element = locate(page, target);
      if (!element) continue;
      // Taken from the budget before the picture, which other workers wait on meanwhile.
      budget.left--;
      const png = await shoot(page, element, limits.maxBytes).catch(() => null);
      if (!png) {
        budget.left++;
        continue;
      }
      out.push({ rule: rule.id, selector, png, ...pngSize(png) });
    }
  }
  return out;
}
