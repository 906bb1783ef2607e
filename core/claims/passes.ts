/**
 * Passing elements, which a scan sends so that claimed fixes can be answered element by element
 * (docs/scans.md, "Passing elements"): the bounds the scanner keeps and the service enforces.
 */

/** As many passing elements as one page may send. */
export const MAX_PASSES_PER_PAGE = 5000;

/** As much of a passing element's markup as is kept: its opening tag and a text rule's text. */
export const PASS_HTML_BYTES = 1000;
