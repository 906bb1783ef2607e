import type { AxeResults } from 'axe-core';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { clipAround, SHOT_TIMEOUT_MS } from './clip.js';
import { axeTargetToSelector, type AxeTarget } from '../core/scans/axe-target.js';
import { shootTopElements } from './top-shots.js';
import { SCREENSHOTS_PER_PAGE, SCREENSHOTS_PER_SCAN } from '../core/scans/pictures.js';

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
export const SCREENSHOT_MAX_KB = 100;
/** Time all of a page's pictures may take. */
const PAGE_SHOTS_MS = 20_000;

export function defaultScreenshotLimits(): ScreenshotLimits {
  return {
    enabled: true,
    perPage: SCREENSHOTS_PER_PAGE,
    perScan: SCREENSHOTS_PER_SCAN,
    maxBytes: SCREENSHOT_MAX_KB * 1024,
  };
}

/**
 * Pictures only where something shows them: the service keeps them with its pages, the HTML report embeds
 * them. A run with neither would take them (a capture of the screen each) and throw them away.
 */
export function picturesWhereShown(
  limits: ScreenshotLimits,
  shown: { service: boolean; report: boolean },
): ScreenshotLimits {
  return { ...limits, enabled: limits.enabled && (shown.service || shown.report) };
}

/** Pictures the whole scan may still take: shared by the workers, so the scan stays under its limit. */
export interface ShotBudget {
  left: number;
}

/**
 * The element of an axe target: frames by their selectors, then the element, through open shadow roots
 * by chaining (Playwright's CSS reaches into them). Null for a frame inside a shadow root.
 */
function locate(page: Page, target: AxeTarget): Locator | null {
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

/** A violating element to picture: in the top document (by its path through shadow roots) or in a frame. */
export interface PictureCandidate {
  rule: string;
  selector: string;
  top: string[] | null;
  target: AxeTarget;
}

/**
 * The violating elements worth a picture, in axe's order (never incomplete results), each element once a
 * rule. Elements in a frame inside a shadow root cannot be reached and are left out.
 */
export function pictureCandidates(axe: Pick<AxeResults, 'violations'>): PictureCandidate[] {
  const out: PictureCandidate[] = [];
  const seen = new Set<string>();
  for (const rule of axe.violations) {
    for (const node of rule.nodes) {
      const target = node.target as unknown as AxeTarget;
      const selector = axeTargetToSelector(target);
      const key = `${rule.id}\n${selector}`;
      const last = target[target.length - 1];
      if (!selector || last === undefined || seen.has(key)) continue;
      if (target.slice(0, -1).some((frame) => typeof frame !== 'string')) continue;
      seen.add(key);
      const top = target.length === 1 ? (typeof last === 'string' ? [last] : [...last]) : null;
      out.push({ rule: rule.id, selector, top, target });
    }
  }
  return out;
}

/** One batch's pictures, in its order: the top document's together, those in frames one by one. */
async function shootBatch(
  page: Page,
  batch: PictureCandidate[],
  o: { prepare: boolean; maxBytes: number; until: number },
): Promise<(Buffer | null)[]> {
  const tops = batch.filter((c) => c.top);
  const topPngs =
    tops.length > 0
      ? await shootTopElements(
          page,
          tops.map((c) => c.top!),
          o,
        )
      : [];
  const out: (Buffer | null)[] = [];
  for (const c of batch) {
    if (c.top) out.push(topPngs[tops.indexOf(c)]);
    else if (Date.now() > o.until) out.push(null);
    else out.push(await shoot(page, locate(page, c.target)!, o.maxBytes).catch(() => null));
  }
  return out;
}

/**
 * Pictures of the page's violating elements, in axe's order, at most `perPage` of the page and what the
 * scan's budget has left. An element that cannot be pictured (hidden, gone, outside the viewport, too
 * large) is skipped and the next one takes its place: pictures help, they never fail a scan.
 */
export async function shootViolations(
  page: Page,
  axe: AxeResults,
  limits: ScreenshotLimits,
  budget: ShotBudget,
): Promise<ElementShot[]> {
  const out: ElementShot[] = [];
  if (!limits.enabled) return out;
  const candidates = pictureCandidates(axe);
  const until = Date.now() + PAGE_SHOTS_MS;
  let next = 0;
  let prepare = true;
  while (next < candidates.length && out.length < limits.perPage && budget.left > 0 && Date.now() <= until) {
    const batch = candidates.slice(next, next + Math.min(limits.perPage - out.length, budget.left));
    next += batch.length;
    // Taken from the budget before the pictures, which other workers wait on meanwhile.
    budget.left -= batch.length;
    const o = { prepare, maxBytes: limits.maxBytes, until };
    prepare = false;
    const pngs = await shootBatch(page, batch, o).catch(() => batch.map(() => null));
    for (const [k, png] of pngs.entries()) {
      if (png) out.push({ rule: batch[k].rule, selector: batch[k].selector, png, ...pngSize(png) });
      else budget.left++;
    }
  }
  return out;
}
