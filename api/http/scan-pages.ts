import type { ZodType } from 'zod';
import type * as input from '../domain/scans/input.js';
import { ScanPageInputSchema } from '../schemas/scans/scans.js';
import type { PageSource } from '../services/scans/scans.js';
import { splitArray, splitObject } from './body/json-split.js';
import { jsonPointer, problems } from './problem.js';
import { type FieldError } from '../domain/errors.js';
import { validateOrThrow } from './validate.js';

/**
 * A scan body read page by page: the members of the body are found as byte ranges, everything but
 * `pages` is parsed and validated at once, and each page is parsed and validated only when the service
 * asks for it (then dropped). Peak memory is the body's bytes plus one batch of pages, instead of the
 * body as text, as a parsed object and as zod's validated copy.
 */

/** The most errors one answer lists (like a body validated whole). */
const MAX_ERRORS = 100;

function parseSlice(body: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(body.toString('utf8', start, end));
  } catch {
    throw problems.malformedJson();
  }
}

/** The pages of a body that was validated as a whole. */
export function arrayPageSource(pages: input.ScanPageInput[]): PageSource {
  return {
    count: pages.length,
    mayHavePa11y: pages.some((p) => p.pa11y !== undefined),
    *[Symbol.iterator]() {
      for (let index = 0; index < pages.length; index++) yield { index, page: pages[index] };
    },
  };
}

/**
 * Validates each page as it is reached. The first invalid page stops the scan (the service's
 * transaction rolls back) after the remaining pages were checked too, so the answer lists every
 * problem, as for a body validated whole.
 */
function lazyPageSource(body: Buffer, ranges: Array<[number, number]>): PageSource {
  return {
    count: ranges.length,
    mayHavePa11y: body.includes('"pa11y"'),
    *[Symbol.iterator]() {
      for (let index = 0; index < ranges.length; index++) {
        const parsed = ScanPageInputSchema.safeParse(parseSlice(body, ranges[index][0], ranges[index][1]));
        if (!parsed.success) throw invalidPages(body, ranges, index, parsed.error.issues);
        yield { index, page: parsed.data };
      }
    },
  };
}

function invalidPages(
  body: Buffer,
  ranges: Array<[number, number]>,
  first: number,
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
) {
  const errors: FieldError[] = [];
  const add = (index: number, list: typeof issues) => {
    for (const issue of list) {
      if (errors.length < MAX_ERRORS)
        errors.push({ pointer: jsonPointer(['pages', index, ...issue.path]), detail: issue.message });
    }
  };
  add(first, issues);
  for (let index = first + 1; index < ranges.length && errors.length < MAX_ERRORS; index++) {
    const parsed = ScanPageInputSchema.safeParse(parseSlice(body, ranges[index][0], ranges[index][1]));
    if (!parsed.success) add(index, parsed.error.issues);
  }
  return problems.validation(errors);
}

/**
 * Reads `{…, pages: [...]}` from the body's bytes: the rest validated with `headSchema`, the pages
 * left for later. A body of another shape (or with an invalid head) is parsed whole and validated with
 * `fullSchema`, which gives the same errors as before (all of them, with pointers).
 */
export function readPagedBody<H, F extends { pages: input.ScanPageInput[] }>(
  body: Buffer | undefined,
  headSchema: ZodType<H>,
  fullSchema: ZodType<F>,
): { head: H; pages: PageSource } {
  const whole = () => {
    const parsed = body === undefined ? undefined : parseSlice(body, 0, body.length);
    const full = validateOrThrow(fullSchema, parsed, '#');
    return { head: full as unknown as H, pages: arrayPageSource(full.pages) };
  };
  if (body === undefined) return whole();
  const members = splitObject(body);
  const pages = members?.findLast((m) => m.key === 'pages');
  const ranges = pages && (pages.elements ?? splitArray(body, pages.start, pages.end));
  if (!members || !pages || !ranges) return whole();
  // Object.fromEntries defines own properties: a "__proto__" member stays data.
  const head = Object.fromEntries(
    members.filter((m) => m.key !== 'pages').map((m) => [m.key, parseSlice(body, m.start, m.end)]),
  );
  const checked = headSchema.safeParse(head);
  if (!checked.success) return whole();
  return { head: checked.data, pages: lazyPageSource(body, ranges) };
}
