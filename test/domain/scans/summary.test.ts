import { scanWarnings, summarize, type PageFacts } from '../../../api/domain/scans/summary.js';
import { truncateUtf8 } from '../../../core/text/truncation.js';

const page = (url: string, o: Partial<PageFacts> = {}): PageFacts => ({
  normalizedUrl: `https://s.example/${url}`,
  normalizedFinalUrl: null,
  title: null,
  httpStatus: 200,
  ...o,
});
const codes = (pages: PageFacts[], truncated = 0) => scanWarnings(pages, truncated, 100).map((w) => w.code);

describe('summarize', () => {
  test('counts by impact (unknown for none) and by kind', () => {
    expect(
      summarize(3, [
        { impact: 'critical', kind: 'violation' },
        { impact: 'critical', kind: 'incomplete' },
        { impact: 'minor', kind: 'violation' },
        { impact: null, kind: 'incomplete' },
      ]),
    ).toEqual({
      pages: 3,
      issues: 4,
      by_impact: { critical: 2, serious: 0, moderate: 0, minor: 1, unknown: 1 },
      by_kind: { violation: 2, incomplete: 2 },
    });
  });
});

describe('scanWarnings', () => {
  test('a healthy scan has none', () => {
    expect(codes([page('a', { title: 'A' }), page('b', { title: 'B' }), page('c', { title: 'C' })])).toEqual(
      [],
    );
  });

  test('zero pages', () => {
    expect(codes([])).toEqual(['no_pages']);
  });

  test('pages with an HTTP error status', () => {
    const w = scanWarnings(
      [page('a', { httpStatus: 404 }), page('b', { httpStatus: 503 }), page('c')],
      0,
      100,
    );
    expect(w).toEqual([
      { code: 'http_error_pages', message: expect.stringContaining('2 of 3') as unknown, count: 2 },
    ]);
  });

  test('the login-page trap: most pages redirected to one URL', () => {
    const login = 'https://s.example/login';
    const pages = ['a', 'b', 'c', 'd'].map((u, i) => page(u, { normalizedFinalUrl: i < 3 ? login : null }));
    expect(scanWarnings(pages, 0, 100)).toEqual([
      { code: 'shared_final_url', message: expect.stringContaining(login) as unknown, count: 3 },
    ]);
  });

  test('the query of the final URL does not matter (/login?next=…)', () => {
    const pages = ['a', 'b', 'c'].map((u) =>
      page(u, { normalizedFinalUrl: `https://s.example/login?next=%2F${u}` }),
    );
    expect(scanWarnings(pages, 0, 100)).toEqual([
      {
        code: 'shared_final_url',
        message: expect.stringContaining('(https://s.example/login)') as unknown,
        count: 3,
      },
    ]);
  });

  test('a final URL equal to the page URL, or shared by half the pages or fewer, is fine', () => {
    expect(
      codes(['a', 'b', 'c'].map((u) => page(u, { normalizedFinalUrl: `https://s.example/${u}` }))),
    ).toEqual([]);
    const half = ['a', 'b', 'c', 'd', 'e', 'f'].map((u, i) =>
      page(u, { normalizedFinalUrl: i < 3 ? 'https://s.example/login' : null }),
    );
    expect(codes(half)).toEqual([]);
    // The same URL scanned three times is one page, not a trap.
    expect(codes([page('a'), page('a'), page('a')].map((p) => ({ ...p, title: 'Same' })))).toEqual([]);
  });

  test('the trap seen at several viewports: a URL counts once, whatever the number of its viewports', () => {
    const login = 'https://s.example/login';
    // Four URLs at two viewports: three of them redirected (at both), one scanned as itself.
    const pages = ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd'].map((u) =>
      page(u, { normalizedFinalUrl: u === 'd' ? null : login }),
    );
    expect(scanWarnings(pages, 0, 100)).toEqual([
      {
        code: 'shared_final_url',
        message: expect.stringMatching(/^3 of 4 pages ended at/) as unknown,
        count: 3,
      },
    ]);
  });

  test('many different pages with one title', () => {
    const pages = ['a', 'b', 'c'].map((u) => page(u, { title: ' Sign in ' }));
    expect(scanWarnings(pages, 0, 100)).toEqual([
      { code: 'shared_title', message: expect.stringContaining('Sign in') as unknown, count: 3 },
    ]);
  });

  test('truncated html', () => {
    expect(scanWarnings([page('a')], 2, 100)).toEqual([
      { code: 'html_truncated', message: expect.stringContaining('100 bytes') as unknown, count: 2 },
    ]);
  });
});

describe('truncateUtf8', () => {
  test('keeps short text as is and cuts long text on a character boundary', () => {
    expect(truncateUtf8('short', 10)).toEqual({ text: 'short', truncated: false });
    expect(truncateUtf8('abcdefghij', 10)).toEqual({ text: 'abcdefghij', truncated: false });
    expect(truncateUtf8('abcdefghijk', 10)).toEqual({ text: 'abcdefghij', truncated: true });
    // "é" is 2 bytes, "😀" 4: never half a character.
    expect(truncateUtf8('ééééé', 5)).toEqual({ text: 'éé', truncated: true });
    expect(truncateUtf8('a😀b', 4)).toEqual({ text: 'a', truncated: true });
    expect(Buffer.byteLength(truncateUtf8('€'.repeat(1000), 100).text)).toBe(99);
  });
});
