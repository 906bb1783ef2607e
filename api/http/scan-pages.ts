import type { ScanPageInput } from '../schemas/scans.js';
import type { PageSource } from '../services/scans.js';

/** The pages of a body that was validated as a whole. */
export function arrayPageSource(pages: ScanPageInput[]): PageSource {
  return {
    count: pages.length,
    mayHavePa11y: pages.some((p) => p.pa11y !== undefined),
    *[Symbol.iterator]() {
      for (let index = 0; index < pages.length; index++) yield { index, page: pages[index] };
    },
  };
}
