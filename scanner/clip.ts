/** CSS pixels of the page shown around the element, so it is seen in its place. */
export const SCREENSHOT_MARGIN = 8;
/** Time one round trip of a picture (a box, a scroll, a capture) may take. */
export const SHOT_TIMEOUT_MS = 3_000;

export type Box = { x: number; y: number; width: number; height: number };
export type Viewport = { width: number; height: number };

/** The element's box with the margin around it, cut to the viewport (in the viewport's coordinates). */
export function clipAround(box: Box | null, viewport: Viewport | null): Box | null {
  if (!box || !viewport || box.width < 1 || box.height < 1) return null;
  const x = Math.max(0, Math.floor(box.x - SCREENSHOT_MARGIN));
  const y = Math.max(0, Math.floor(box.y - SCREENSHOT_MARGIN));
  const right = Math.min(viewport.width, Math.ceil(box.x + box.width + SCREENSHOT_MARGIN));
  const bottom = Math.min(viewport.height, Math.ceil(box.y + box.height + SCREENSHOT_MARGIN));
  return right - x < 1 || bottom - y < 1 ? null : { x, y, width: right - x, height: bottom - y };
}

/** The element is wholly in view: scrolling it "into view if needed" would not move the page. */
export function inView(box: Box, viewport: Viewport): boolean {
  return (
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height
  );
}

/** The smallest box holding all of them. */
export function union(boxes: Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Rejects after `ms`: a page that stops answering costs the pictures, never the scan. */
export function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
