import type { ScanBodyPage } from '../client/wire-types.js';

/**
 * Recognises the result files CI tools write and turns each into scan pages. Pure: the caller reads the
 * files. Supported shapes:
 * - one axe-core result object (`axe.run()`, `@axe-core/playwright`'s `analyze()`): `{url, violations, …}`
 * - an array of them (`@axe-core/cli --save`, most Playwright/Cypress setups)
 * - pa11y-ci's JSON report: `{total, passes, errors, results: {"<url>": [issue | {message}]}}`
 * - pa11y's own JSON (`pa11y --reporter json`): `{pageUrl, documentTitle, issues}` or an array of them
 * - a native scan body (`{url, pages: [...]}`, docs/scans.md)
 */

export type ResultFormat = 'axe' | 'axe-array' | 'pa11y-ci' | 'pa11y' | 'native';

export interface ParsedResults {
  format: ResultFormat;
  pages: ScanBodyPage[];
  engine?: { name: string; version?: string };
  /** The scanned site, when the file itself says (native bodies). */
  url?: string;
  /** Things the user should know: pages that failed to load, ignored fields. */
  warnings: string[];
}

/** A file that is not one of the supported formats; the message names the file and what was expected. */
export class ResultsFormatError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'ResultsFormatError';
  }
}

type Json = Record<string, unknown>;

const EXPECTED =
  'expected an axe-core result object, an array of them, a pa11y-ci JSON report, pa11y JSON, or a native scan body ({url, pages})';

export function parseResults(file: string, data: unknown): ParsedResults {
  if (Array.isArray(data)) {
    if (data.length === 0)
      return { format: 'axe-array', pages: [], warnings: [`${file}: the array is empty`] };
    if (data.every(isAxeResult)) return fromAxe(file, data, 'axe-array');
    if (data.every(isPa11yResult)) return fromPa11y(file, data);
    const bad = data.findIndex((d) => !isAxeResult(d) && !isPa11yResult(d));
    throw new ResultsFormatError(
      file,
      `item ${bad} of the array is not an axe-core or pa11y result; ${EXPECTED}`,
    );
  }
  if (!isObject(data)) throw new ResultsFormatError(file, EXPECTED);
  if (Array.isArray(data.pages)) return fromNative(file, data);
  if (isObject(data.results) && typeof data.total === 'number') return fromPa11yCi(file, data);
  if (isAxeResult(data)) return fromAxe(file, [data], 'axe');
  if (isPa11yResult(data)) return fromPa11y(file, [data]);
  throw new ResultsFormatError(file, EXPECTED);
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isAxeResult(v: unknown): v is Json {
  return isObject(v) && Array.isArray(v.violations);
}

function isPa11yResult(v: unknown): v is Json {
  return isObject(v) && typeof v.pageUrl === 'string' && Array.isArray(v.issues);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

// --- axe-core ---------------------------------------------------------------------------------------------

function fromAxe(file: string, results: Json[], format: 'axe' | 'axe-array'): ParsedResults {
  const pages: ScanBodyPage[] = results.map((result, i) => {
    const url = str(result.url);
    if (!url) {
      const where = format === 'axe' ? 'the result' : `item ${i}`;
      throw new ResultsFormatError(file, `${where} has no "url" (axe-core records the page URL there)`);
    }
    // The service owns the axe import (violations and incomplete → issues). Of passes and inapplicable it
    // reads only the rule ids (which rules ran: the evidence a VPAT needs), so their nodes, often most of
    // the file, are not sent.
    return {
      url,
      axe: { ...result, passes: ruleIds(result.passes), inapplicable: ruleIds(result.inapplicable) },
    };
  });
  const engine = isObject(results[0]?.testEngine) ? results[0].testEngine : undefined;
  return {
    format,
    pages,
    engine:
      engine && str(engine.name) ? { name: String(engine.name), version: str(engine.version) } : undefined,
    warnings: [],
  };
}

function ruleIds(rules: unknown): { id: string }[] {
  return Array.isArray(rules) ? rules.filter(isObject).map((r) => ({ id: String(r.id) })) : [];
}

// --- pa11y and pa11y-ci ------------------------------------------------------------------------------------

// pa11y issues go to the service as they are (a page's `pa11y` form): the service owns the import (the
// runner, impact and WCAG criterion of each issue), exactly as it does for axe results.

function isPa11yIssue(v: unknown): v is Json {
  return isObject(v) && typeof v.code === 'string';
}

function fromPa11yCi(file: string, report: Json): ParsedResults {
  const warnings: string[] = [];
  const pages: ScanBodyPage[] = [];
  for (const [url, entries] of Object.entries(report.results as Json)) {
    if (!Array.isArray(entries)) {
      throw new ResultsFormatError(file, `results["${url}"] is not an array of pa11y issues`);
    }
    // pa11y-ci records a page that failed to load as `[{message}]` (the serialised Error). Submitting it as
    // a page without issues would claim it is clean, so it is left out and reported.
    const failure: unknown = entries.find((e) => !isPa11yIssue(e));
    if (failure) {
      const why = isObject(failure) && str(failure.message) ? str(failure.message) : 'not a pa11y issue';
      warnings.push(`${file}: ${url} was not tested (${why}); it is left out of the scan`);
      continue;
    }
    pages.push({ url, pa11y: entries });
  }
  return { format: 'pa11y-ci', pages, engine: { name: 'pa11y-ci' }, warnings };
}

function fromPa11y(file: string, results: Json[]): ParsedResults {
  const pages = results.map((r, i) => {
    const bad = (r.issues as unknown[]).findIndex((e) => !isPa11yIssue(e));
    if (bad >= 0) throw new ResultsFormatError(file, `issue ${bad} of result ${i} is not a pa11y issue`);
    const page: ScanBodyPage = { url: String(r.pageUrl), pa11y: r.issues };
    const title = str(r.documentTitle);
    if (title) page.title = title;
    return page;
  });
  return { format: 'pa11y', pages, engine: { name: 'pa11y' }, warnings: [] };
}

// --- native -------------------------------------------------------------------------------------------------

function fromNative(file: string, body: Json): ParsedResults {
  const pages = body.pages as unknown[];
  const bad = pages.findIndex((p) => !isObject(p) || typeof p.url !== 'string');
  if (bad >= 0) throw new ResultsFormatError(file, `pages[${bad}] has no "url"`);
  const warnings: string[] = [];
  for (const field of ['siteId', 'sha', 'branch']) {
    if (body[field] !== undefined) {
      warnings.push(`${file}: "${field}" in the file is ignored; the action sets it from its inputs`);
    }
  }
  const engine = isObject(body.engine) && str(body.engine.name) ? body.engine : undefined;
  return {
    format: 'native',
    // Pages are passed through as they are: the service validates them and answers with JSON pointers.
    pages: pages as ScanBodyPage[],
    url: str(body.url),
    engine: engine ? { name: String(engine.name), version: str(engine.version) } : undefined,
    warnings,
  };
}
