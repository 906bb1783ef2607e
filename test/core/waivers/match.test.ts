import {
  compileWaivers,
  normaliseWaiverSelector,
  waiverState,
  type WaivableIssue,
  type WaiverRule,
} from '../../../core/waivers/match.js';
import { compileGlob, urlMatcher } from '../../../core/waivers/glob.js';

const NOW = '2026-11-23T12:00:00.000Z';
const LATER = '2026-12-23T12:00:00.000Z';
const EARLIER = '2026-11-01T12:00:00.000Z';

let seq = 0;
function waiver(w: Partial<WaiverRule> & { rule: string }): WaiverRule {
  seq++;
  return {
    id: w.id ?? `wvr_${seq}`,
    selector: null,
    urlPattern: null,
    fingerprint: null,
    expiresAt: LATER,
    revokedAt: null,
    createdAt: `2026-11-0${(seq % 9) + 1}T00:00:00.000Z`,
    ...w,
  };
}

function issue(i: Partial<WaivableIssue> = {}): WaivableIssue {
  return {
    rule: 'color-contrast',
    selector: '#buy > .price',
    fingerprint: 'a'.repeat(64),
    pageUrls: ['https://shop.example/products/42?ref=x'],
    ...i,
  };
}

describe('waiverState', () => {
  test('active until its expiry; revoked wins over expired', () => {
    expect(waiverState({ expiresAt: LATER, revokedAt: null }, NOW)).toBe('active');
    expect(waiverState({ expiresAt: EARLIER, revokedAt: null }, NOW)).toBe('expired');
    expect(waiverState({ expiresAt: NOW, revokedAt: null }, NOW)).toBe('expired');
    expect(waiverState({ expiresAt: EARLIER, revokedAt: EARLIER }, NOW)).toBe('revoked');
    expect(waiverState({ expiresAt: LATER, revokedAt: EARLIER }, NOW)).toBe('revoked');
  });
});

describe('compileWaivers', () => {
  test('a rule-only waiver matches every issue of that rule and no other rule', () => {
    const m = compileWaivers([waiver({ id: 'w1', rule: 'color-contrast' })], NOW);
    expect(m.size).toBe(1);
    expect(m.match(issue())).toBe('w1');
    expect(m.match(issue({ rule: 'image-alt' }))).toBeUndefined();
  });

  test('selector must match (whitespace-insensitive) and an issue without a selector does not match', () => {
    const m = compileWaivers(
      [waiver({ id: 'w1', rule: 'color-contrast', selector: ' #buy  >  .price ' })],
      NOW,
    );
    expect(m.match(issue())).toBe('w1');
    expect(m.match(issue({ selector: '#buy > .total' }))).toBeUndefined();
    expect(m.match(issue({ selector: null }))).toBeUndefined();
    expect(normaliseWaiverSelector('a \n  b')).toBe(normaliseWaiverSelector('a b'));
    // Generated class names match any build's, as in fingerprints.
    const css = compileWaivers(
      [waiver({ id: 'w2', rule: 'color-contrast', selector: '.card .css-1a2b3c' })],
      NOW,
    );
    expect(css.match(issue({ selector: '.card .css-9z8y7x' }))).toBe('w2');
    expect(css.match(issue({ selector: '.list .css-9z8y7x' }))).toBeUndefined();
  });

  test('url_pattern is a glob on the path (leading /) or on the whole URL', () => {
    const byPath = compileWaivers(
      [waiver({ id: 'w1', rule: 'color-contrast', urlPattern: '/products/*' })],
      NOW,
    );
    expect(byPath.match(issue())).toBe('w1');
    expect(byPath.match(issue({ pageUrls: ['https://shop.example/products/42/reviews'] }))).toBeUndefined();
    expect(byPath.match(issue({ pageUrls: ['https://shop.example/cart'] }))).toBeUndefined();

    const deep = compileWaivers(
      [waiver({ id: 'w2', rule: 'color-contrast', urlPattern: '/products/**' })],
      NOW,
    );
    expect(deep.match(issue({ pageUrls: ['https://shop.example/products/42/reviews'] }))).toBe('w2');

    const full = compileWaivers(
      [waiver({ id: 'w3', rule: 'color-contrast', urlPattern: 'https://shop.example/**' })],
      NOW,
    );
    expect(full.match(issue())).toBe('w3');
    expect(full.match(issue({ pageUrls: ['https://preview.example/products/42'] }))).toBeUndefined();
  });

  test('any of the page URLs (as submitted, normalised) may match the glob', () => {
    const m = compileWaivers([waiver({ id: 'w1', rule: 'color-contrast', urlPattern: '/checkout' })], NOW);
    expect(
      m.match(
        issue({ pageUrls: ['https://shop.example/checkout?sessionid=1', 'https://shop.example/checkout'] }),
      ),
    ).toBe('w1');
  });

  test('fingerprint must match exactly (case-insensitive hex)', () => {
    const m = compileWaivers(
      [waiver({ id: 'w1', rule: 'color-contrast', fingerprint: 'A'.repeat(64) })],
      NOW,
    );
    expect(m.match(issue())).toBe('w1');
    expect(m.match(issue({ fingerprint: 'b'.repeat(64) }))).toBeUndefined();
  });

  test('every criterion that is set must hold', () => {
    const m = compileWaivers(
      [waiver({ id: 'w1', rule: 'color-contrast', selector: '#buy > .price', urlPattern: '/cart' })],
      NOW,
    );
    expect(m.match(issue())).toBeUndefined();
    expect(m.match(issue({ pageUrls: ['https://shop.example/cart'] }))).toBe('w1');
  });

  test('expired and revoked waivers never match', () => {
    const m = compileWaivers(
      [
        waiver({ id: 'expired', rule: 'color-contrast', expiresAt: EARLIER }),
        waiver({ id: 'revoked', rule: 'color-contrast', revokedAt: EARLIER }),
      ],
      NOW,
    );
    expect(m.size).toBe(0);
    expect(m.match(issue())).toBeUndefined();
  });

  test('with several matching waivers the oldest one is named', () => {
    const m = compileWaivers(
      [
        waiver({ id: 'newer', rule: 'color-contrast', createdAt: '2026-11-20T00:00:00.000Z' }),
        waiver({ id: 'older', rule: 'color-contrast', createdAt: '2026-11-10T00:00:00.000Z' }),
      ],
      NOW,
    );
    expect(m.match(issue())).toBe('older');
  });
});

describe('compileWaivers with selector and rule-only waivers together', () => {
  const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T00:00:00.000Z`;

  test('the oldest matching waiver is named, whether or not it names a selector', () => {
    const selectorOlder = compileWaivers(
      [
        waiver({ id: 'rule-only', rule: 'color-contrast', createdAt: at(10) }),
        waiver({ id: 'by-selector', rule: 'color-contrast', selector: '#buy > .price', createdAt: at(5) }),
      ],
      NOW,
    );
    expect(selectorOlder.match(issue())).toBe('by-selector');
    expect(selectorOlder.match(issue({ selector: '#other' }))).toBe('rule-only');

    const ruleOlder = compileWaivers(
      [
        waiver({ id: 'by-selector', rule: 'color-contrast', selector: '#buy > .price', createdAt: at(5) }),
        waiver({ id: 'rule-only', rule: 'color-contrast', createdAt: at(3) }),
      ],
      NOW,
    );
    expect(ruleOlder.match(issue())).toBe('rule-only');
  });

  test('waivers on one selector are tried oldest first, each with its other criteria', () => {
    const m = compileWaivers(
      [
        waiver({
          id: 'cart',
          rule: 'color-contrast',
          selector: '#buy>.price',
          urlPattern: '/cart',
          createdAt: at(1),
        }),
        waiver({
          id: 'fp',
          rule: 'color-contrast',
          selector: '#buy > .price',
          fingerprint: 'b'.repeat(64),
          createdAt: at(2),
        }),
        waiver({
          id: 'products',
          rule: 'color-contrast',
          selector: ' #buy  > .price',
          urlPattern: '/products/**',
          createdAt: at(3),
        }),
      ],
      NOW,
    );
    expect(m.match(issue())).toBe('products');
    expect(m.match(issue({ fingerprint: 'b'.repeat(64) }))).toBe('fp');
    expect(m.match(issue({ pageUrls: ['https://shop.example/cart'] }))).toBe('cart');
    expect(m.match(issue({ pageUrls: ['https://shop.example/about'] }))).toBeUndefined();
    expect(m.match(issue({ selector: null }))).toBeUndefined();
    expect(m.size).toBe(3);
  });

  test('many selector waivers on one rule: each is still matched on its own element', () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      waiver({
        id: `w${i}`,
        rule: 'color-contrast',
        selector: `#promo-${i} > .css-1a2b3c`,
        createdAt: at(1),
      }),
    );
    const m = compileWaivers(many, NOW);
    expect(m.match(issue({ selector: '#promo-42 > .css-9z8y7x' }))).toBe('w42');
    expect(m.match(issue({ selector: '#promo-300 > .css-9z8y7x' }))).toBeUndefined();
  });
});

describe('URL globs', () => {
  test('`*` stays within a path segment, `**` crosses them, `?` is one character, the rest is literal', () => {
    const cases: Array<[string, string, boolean]> = [
      ['/products/*', '/products/42', true],
      ['/products/*', '/products/42/reviews', false],
      ['/products/**', '/products/42/reviews', true],
      ['/products/**', '/products/', true],
      ['/p?/x', '/p1/x', true],
      ['/p?/x', '/p//x', false],
      ['/p?/x', '/p12/x', false],
      ['/a.b', '/a.b', true],
      ['/a.b', '/aXb', false],
      ['/(x)+[y]$', '/(x)+[y]$', true],
      ['/***/z', '/a/b/z', true],
      ['/*/**/*', '/a/x/b', true],
      // The slashes around `**` are literal (unlike .gitignore's `a/**/b`).
      ['/*/**/*', '/a/b', false],
      ['/*/**/*', '/a', false],
    ];
    for (const [pattern, path, expected] of cases) {
      expect([pattern, path, urlMatcher(pattern)(`https://shop.example${path}`)]).toEqual([
        pattern,
        path,
        expected,
      ]);
    }
    expect(compileGlob('')('')).toBe(true);
    expect(compileGlob('')('x')).toBe(false);
    expect(compileGlob('**')('')).toBe(true);
    expect(urlMatcher('https://*.example/**')('https://shop.example/a/b')).toBe(true);
    expect(urlMatcher('https://*.example/*')('https://shop.example/a/b')).toBe(false);
  });

  test('a pattern with many wildcards answers (no backtracking blow-up on a URL that almost matches)', () => {
    // As a regular expression (`^.*a.*a…b$`) this took minutes on one 40-character URL.
    const pattern = '/' + '**a'.repeat(40) + 'b';
    const m = urlMatcher(pattern);
    expect(m('https://shop.example/' + 'a'.repeat(60))).toBe(false);
    expect(m('https://shop.example/' + 'a'.repeat(60) + 'b')).toBe(true);
    const segments = urlMatcher('/' + '*a'.repeat(40) + 'b');
    expect(segments('https://shop.example/' + 'a'.repeat(60))).toBe(false);
  });

  test('non-ASCII and spaces in a path pattern match however the URL spells them', () => {
    expect(urlMatcher('/café/*')('https://shop.example/café/menu')).toBe(true);
    expect(urlMatcher('/café/*')('https://shop.example/caf%C3%A9/menu')).toBe(true);
    expect(urlMatcher('/caf%C3%A9/*')('https://shop.example/café/menu')).toBe(true);
    expect(urlMatcher('/my page')('https://shop.example/my%20page?x=1')).toBe(true);
    expect(urlMatcher('/日本/?')('https://shop.example/日本/a')).toBe(true);
    expect(urlMatcher('https://shop.example/café/**')('https://shop.example/caf%C3%A9/a/b')).toBe(true);
    // A malformed escape is tried as given only.
    expect(urlMatcher('/a%zz')('https://shop.example/a%zz')).toBe(true);
  });

  test('a waiver with a non-ASCII url_pattern waives issues on that page', () => {
    const m = compileWaivers([waiver({ id: 'w1', rule: 'color-contrast', urlPattern: '/über-uns' })], NOW);
    expect(m.match(issue({ pageUrls: ['https://shop.example/%C3%BCber-uns'] }))).toBe('w1');
  });
});
