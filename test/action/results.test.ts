import { jest } from '@jest/globals';
import type { AxeResults } from 'axe-core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, parseInputs } from '../../action/inputs.js';
import { parseResults, ResultsFormatError } from '../../action/result-formats.js';
import { loadResults } from '../../action/results.js';

// @actions/glob reports its search through core.debug on stdout; keep the test output readable.
beforeAll(() => {
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterAll(() => {
  jest.restoreAllMocks();
});

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'action');
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';

function read(name: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(fixtures, name), 'utf8'));
}

/** An axe-core result as the action sends it: passes and inapplicable cut to their rule ids. */
type SentAxeResult = Omit<AxeResults, 'passes' | 'inapplicable'> & {
  passes: Array<{ id: string }>;
  inapplicable: Array<{ id: string }>;
};

function inputs(values: Record<string, string>, env: Record<string, string> = {}) {
  const all: Record<string, string> = {
    'api-url': 'https://a.example',
    'api-key': 'k',
    'site-id': 'shop',
    ...values,
  };
  return parseInputs((n) => all[n] ?? '', { GITHUB_SHA: SHA, ...env });
}

describe('parseResults: each supported format (real fixture files)', () => {
  test('a single axe-core result becomes one page carrying the result, passes/inapplicable cut to rule ids', () => {
    const data = read('axe-result.json') as AxeResults;
    const parsed = parseResults('axe-result.json', data);
    expect(parsed.format).toBe('axe');
    expect(parsed.engine).toEqual({ name: 'axe-core', version: '4.14.1' });
    expect(parsed.pages).toHaveLength(1);
    const page = parsed.pages[0] as { url: string; axe: SentAxeResult };
    expect(page.url).toBe('https://shop.example.com/');
    expect(page.axe.violations).toEqual(data.violations);
    expect(page.axe.incomplete).toEqual(data.incomplete);
    expect(page.axe.testEngine).toEqual(data.testEngine);
    expect(page.axe.passes).toEqual(data.passes.map((r) => ({ id: r.id })));
    expect(page.axe.passes.length).toBeGreaterThan(0);
    expect(page.axe.inapplicable).toEqual(data.inapplicable.map((r) => ({ id: r.id })));
    expect(data.violations.length).toBeGreaterThan(0);
  });

  test('an @axe-core/cli array becomes one page per result', () => {
    const parsed = parseResults('results.json', read('axe-cli/results.json'));
    expect(parsed.format).toBe('axe-array');
    expect(parsed.pages.map((p) => p.url)).toEqual([
      'https://shop.example.com/',
      'https://shop.example.com/cart',
    ]);
    expect(parsed.pages.every((p) => p.axe && !p.issues)).toBe(true);
  });

  test('a pa11y-ci report: one page per tested URL with its pa11y issues; pages that failed to load are left out', () => {
    const data = read('pa11y-ci.json') as { results: Record<string, unknown[]> };
    const parsed = parseResults('pa11y-ci.json', data);
    expect(parsed.format).toBe('pa11y-ci');
    expect(parsed.engine).toEqual({ name: 'pa11y-ci' });
    expect(parsed.pages).toEqual([
      { url: 'https://shop.example.com/', pa11y: data.results['https://shop.example.com/'] },
      { url: 'https://shop.example.com/cart', pa11y: [] },
    ]);
    expect(parsed.warnings).toEqual([
      'pa11y-ci.json: https://shop.example.com/account was not tested (net::ERR_CONNECTION_REFUSED at https://shop.example.com/account); it is left out of the scan',
    ]);
  });

  test('pa11y JSON (one result) keeps the document title', () => {
    const data = read('pa11y.json') as { issues: unknown[] };
    const parsed = parseResults('pa11y.json', data);
    expect(parsed.format).toBe('pa11y');
    expect(parsed.pages).toEqual([{ url: 'https://shop.example.com/', title: 'Shop', pa11y: data.issues }]);
    expect(parseResults('two.json', [data, data]).pages).toHaveLength(2);
  });

  test('a native scan body passes its pages through and names its url and engine', () => {
    const data = read('native-scan.json') as { pages: unknown[] };
    const parsed = parseResults('native-scan.json', data);
    expect(parsed).toMatchObject({
      format: 'native',
      url: 'https://shop.example.com/',
      engine: { name: 'in-house-checker', version: '2.1.0' },
      warnings: [],
    });
    expect(parsed.pages).toEqual(data.pages);
  });

  test('fields the action owns are ignored with a warning', () => {
    const parsed = parseResults('n.json', {
      url: 'https://x.example/',
      siteId: 'other',
      sha: 'abc1234',
      pages: [],
    });
    expect(parsed.warnings).toEqual([
      'n.json: "siteId" in the file is ignored; the action sets it from its inputs',
      'n.json: "sha" in the file is ignored; the action sets it from its inputs',
    ]);
  });

  test.each([
    ['not-results.json', read('not-results.json'), /not-results.json: expected an axe-core result object/],
    ['n.json', 'just a string', /n.json: expected/],
    ['mixed.json', [{ url: 'https://a/', violations: [] }, { foo: 1 }], /item 1 of the array/],
    ['noUrl.json', { violations: [] }, /no "url"/],
    ['pages.json', { url: 'https://a/', pages: [{ title: 'x' }] }, /pages\[0\] has no "url"/],
    [
      'ci.json',
      { total: 1, results: { 'https://a/': 'oops' } },
      /results\["https:\/\/a\/"\] is not an array/,
    ],
  ])('%s is refused with a message naming the file', (file, data, pattern) => {
    expect(() => parseResults(file, data)).toThrow(ResultsFormatError);
    expect(() => parseResults(file, data)).toThrow(pattern);
  });
});

describe('loadResults: glob → one scan body', () => {
  test('every matched file is merged into one scan for this commit, in a stable order', async () => {
    const loaded = await loadResults(
      inputs(
        { results: 'axe-cli/*.json\npa11y-ci.json\nnative-scan.json', url: 'https://shop.example.com' },
        { GITHUB_HEAD_REF: 'fix-alt', GITHUB_RUN_ATTEMPT: '3' },
      ),
      fixtures,
    );
    expect(loaded.files).toEqual([
      { file: path.join('axe-cli', 'results.json'), format: 'axe-array', pages: 2 },
      { file: 'native-scan.json', format: 'native', pages: 1 },
      { file: 'pa11y-ci.json', format: 'pa11y-ci', pages: 2 },
    ]);
    expect(loaded.scan).toMatchObject({
      url: 'https://shop.example.com',
      siteId: 'shop',
      sha: SHA,
      branch: 'fix-alt',
      run_attempt: 3,
      engine: { name: 'axe-core', version: '4.14.1' },
    });
    expect(loaded.scan.pages).toHaveLength(5);
    expect(loaded.warnings).toEqual([
      expect.stringContaining('pa11y-ci.json: https://shop.example.com/account was not tested'),
    ]);
    expect(loaded.notes).toEqual([
      'native-scan.json: results from in-house-checker are mixed with axe-core; the scan names axe-core',
      'pa11y-ci.json: results from pa11y-ci are mixed with axe-core; the scan names axe-core',
    ]);
  });

  test('without the url input: a native file names the site, else the first page origin does', async () => {
    const native = await loadResults(inputs({ results: 'native-scan.json' }), fixtures);
    expect(native.scan.url).toBe('https://shop.example.com/');
    expect(native.scan.engine).toEqual({ name: 'in-house-checker', version: '2.1.0' });
    const axe = await loadResults(inputs({ results: 'axe-result.json' }), fixtures);
    expect(axe.scan.url).toBe('https://shop.example.com/');
    expect(axe.scan).not.toHaveProperty('branch');
    expect(axe.scan).not.toHaveProperty('run_attempt');
  });

  test('"!" patterns exclude files', async () => {
    const loaded = await loadResults(
      inputs({ results: '*.json\n!not-results.json\n!truncated.json\n!pa11y*.json' }),
      fixtures,
    );
    expect(loaded.files.map((f) => f.file)).toEqual(['axe-result.json', 'native-scan.json']);
  });

  test('no match, broken JSON and unknown shapes fail naming the input or file', async () => {
    await expect(loadResults(inputs({ results: 'nothing-*.json' }), fixtures)).rejects.toThrow(InputError);
    await expect(loadResults(inputs({ results: 'nothing-*.json' }), fixtures)).rejects.toThrow(
      /^Input "results" matched no files/,
    );
    await expect(loadResults(inputs({ results: 'truncated.json' }), fixtures)).rejects.toThrow(
      /^truncated.json: is not valid JSON/,
    );
    await expect(loadResults(inputs({ results: 'not-results.json' }), fixtures)).rejects.toThrow(
      ResultsFormatError,
    );
  });

  test('results with no page at all fail naming the input: an empty scan would pass the gate', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-results-'));
    fs.writeFileSync(path.join(dir, 'empty.json'), '[]');
    fs.writeFileSync(path.join(dir, 'native.json'), JSON.stringify({ url: 'https://x.example/', pages: [] }));
    for (const url of ['', 'https://x.example/']) {
      await expect(loadResults(inputs({ results: '*.json', url }), dir)).rejects.toThrow(
        'Input "results" holds no tested page (2 files): an empty scan would pass the gate without testing anything',
      );
    }
  });

  test('a page without a usable URL to take the site from names the url input', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-results-'));
    fs.writeFileSync(path.join(dir, 'n.json'), JSON.stringify({ pages: [{ url: 'about:blank' }] }));
    await expect(loadResults(inputs({ results: 'n.json' }), dir)).rejects.toThrow(/^Input "url" is required/);
  });
});

test('a result file with a UTF-8 byte order mark (Windows tools write one) is read like any other', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-results-'));
  const text = fs.readFileSync(path.join(fixtures, 'pa11y.json'), 'utf8');
  fs.writeFileSync(path.join(dir, 'bom.json'), '\uFEFF' + text);
  // Windows PowerShell 5's `>` writes UTF-16LE with a BOM (`pa11y-ci --json > report.json`).
  fs.writeFileSync(path.join(dir, 'utf16.json'), Buffer.from('\uFEFF' + text, 'utf16le'));
  const loaded = await loadResults(inputs({ results: '*.json' }), dir);
  expect(loaded.files).toEqual([
    { file: 'bom.json', format: 'pa11y', pages: 1 },
    { file: 'utf16.json', format: 'pa11y', pages: 1 },
  ]);
  expect(loaded.scan.pages[1]).toEqual(loaded.scan.pages[0]);
});
