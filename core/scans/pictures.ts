import { truncate } from '../text/truncation.js';

/** The element pictures a scan may carry: the scanner takes no more, and the service keeps no more. */
export const SCREENSHOTS_PER_PAGE = 20;
export const SCREENSHOTS_PER_SCAN = 500;

/**
 * The alt text of an element's picture (the console's and the CLI report's): the rule and the element, as a
 * screen reader user needs them.
 */
export function screenshotAlt(rule: string, selector: string): string {
  const element = truncate(selector, 120);
  return `Screenshot of the element ${element} that fails the rule ${rule}`;
}
