import fc from 'fast-check';
import {
  currentPageKey,
  defaultSiteId,
  isDroppedParam,
  normalizeUrl,
  pageKey,
} from '../../core/url-normalisation.js';

describe('normalizeUrl', () => {
  test.each([
    ['https://Shop.Example.COM:443/cart', 'https://shop.example.com/cart'],
    ['http://shop.example.com:80/', 'http://shop.example.com/'],
    ['http://shop.example.com:8080/', 'http://shop.example.com:8080/'],
    ['https://shop.example.com/a#reviews', 'https://shop.example.com/a'],
    ['https://shop.example.com/a/', 'https://shop.example.com/a'],
    ['https://shop.example.com/a//', 'https://shop.example.com/a'],
    ['https://shop.example.com/', 'https://shop.example.com/'],
    ['https://shop.example.com', 'https://shop.example.com/'],
    ['https://user:pw@shop.example.com/', 'https://shop.example.com/'],
    ['https://shop.example.com/?utm_source=x&utm_medium=y&q=shoes', 'https://shop.example.com/?q=shoes'],
    ['https://shop.example.com/?gclid=1&fbclid=2&msclkid=3&_ga=4', 'https://shop.example.com/'],
    ['https://shop.example.com/?PHPSESSID=abc&sessionid=d&jsessionid=e&sid=f', 'https://shop.example.com/'],
    ['https://shop.example.com/?b=2&a=1&_=1700000000000', 'https://shop.example.com/?a=1&b=2'],
    ['https://shop.example.com/?a=2&a=1', 'https://shop.example.com/?a=2&a=1'],
    ['https://shop.example.com/shop;jsessionid=ABC123?x=1', 'https://shop.example.com/shop?x=1'],
    ['https://app.example.com/#/settings/profile', 'https://app.example.com/#/settings/profile'],
    ['https://app.example.com/#!/inbox', 'https://app.example.com/#!/inbox'],
    // A single-page-app route is a page URL too: its own tracking parameters, order and trailing slash.
    ['https://app.example.com/#/inbox?utm_source=mail&b=2&a=1', 'https://app.example.com/#/inbox?a=1&b=2'],
    ['https://app.example.com/#/settings/', 'https://app.example.com/#/settings'],
    ['https://app.example.com/#!/inbox/?gclid=1', 'https://app.example.com/#!/inbox'],
    ['https://app.example.com/#/', 'https://app.example.com/#/'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  test('resolves relative page URLs against the scan URL', () => {
    expect(normalizeUrl('/checkout?utm_campaign=x', 'https://shop.example.com/en/')).toBe(
      'https://shop.example.com/checkout',
    );
    expect(normalizeUrl('about', 'https://shop.example.com/en/')).toBe('https://shop.example.com/en/about');
  });

  test('refuses what is not an http(s) URL', () => {
    expect(normalizeUrl('mailto:a@b.c')).toBeUndefined();
    expect(normalizeUrl('javascript:alert(1)')).toBeUndefined();
    expect(normalizeUrl('/relative')).toBeUndefined();
    expect(normalizeUrl('not a url')).toBeUndefined();
  });

  test('is idempotent', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        const once = normalizeUrl(url);
        if (once === undefined) return;
        expect(normalizeUrl(once)).toBe(once);
      }),
    );
  });

  test('tracking parameter names are matched case-insensitively, by prefix for utm_ and friends', () => {
    expect(isDroppedParam('UTM_Source')).toBe(true);
    expect(isDroppedParam('utm_whatever')).toBe(true);
    expect(isDroppedParam('page')).toBe(false);
    expect(isDroppedParam('q')).toBe(false);
  });
});

describe('one page, one address', () => {
  test.each([
    // A folder's index file is the folder: the root, and a folder with or without its slash.
    [
      ['https://site.test/', 'https://site.test/index.html', 'https://site.test/index.htm'],
      'https://site.test/',
    ],
    [
      [
        'https://site.test/docs',
        'https://site.test/docs/',
        'https://site.test/docs/index.html',
        'https://site.test/docs/index.htm',
        'https://site.test/docs//index.html/',
      ],
      'https://site.test/docs',
    ],
    // Default ports and fragments fold in the same address.
    [['http://site.test:80/index.html#main', 'http://site.test/#top'], 'http://site.test/'],
    [
      ['https://site.test:443/a/index.html?b=2&a=1', 'https://site.test/a/?a=1&b=2'],
      'https://site.test/a?a=1&b=2',
    ],
  ])('%j are one address', (spellings, address) => {
    for (const url of spellings) expect(normalizeUrl(url)).toBe(address);
  });

  test.each([
    // Only a whole last segment named index.html or index.htm: other files, and other names, are pages of their own.
    ['https://site.test/index.html/about', 'https://site.test/index.html/about'],
    ['https://site.test/myindex.html', 'https://site.test/myindex.html'],
    ['https://site.test/index.php', 'https://site.test/index.php'],
    ['https://site.test/Index.HTML', 'https://site.test/Index.HTML'],
    ['https://site.test/index.shtml', 'https://site.test/index.shtml'],
    // A single-page-app route names a page of the app, not a file: kept as it is.
    ['https://app.test/#/index.html', 'https://app.test/#/index.html'],
  ])('%s stays %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  test('a page stored or recorded before the rule gets the key the rule gives it', () => {
    // Stored normalised URLs of earlier scans still say /index.html: the key read from them is the folder's.
    expect(pageKey('https://site.test/docs/index.html')).toBe('/docs');
    expect(pageKey('https://site.test/index.htm?lang=de')).toBe('/?lang=de');
    expect(currentPageKey('/docs/index.html')).toBe('/docs');
    expect(currentPageKey('/index.html?lang=de#/route')).toBe('/?lang=de#/route');
    expect(currentPageKey('/')).toBe('/');
    expect(currentPageKey('/#/index.html')).toBe('/#/index.html');
    expect(currentPageKey('/cart?id=3')).toBe('/cart?id=3');
  });

  test('keys are stable: the rule applied to a key or a normalised URL again changes nothing', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ withQueryParameters: true, withFragments: true }),
        fc.constantFrom('', '/', '/index.html', '/index.htm', '/index.html/'),
        (url, tail) => {
          const u = new URL(url);
          u.pathname += tail;
          const once = normalizeUrl(u.href);
          if (once === undefined) return;
          expect(normalizeUrl(once)).toBe(once);
          expect(currentPageKey(pageKey(once))).toBe(pageKey(once));
          expect(new URL(once).pathname).not.toMatch(/\/index\.html?$/);
        },
      ),
    );
  });
});

describe('pageKey', () => {
  test('drops scheme and host so a preview deployment matches production', () => {
    const preview = normalizeUrl('https://pr-12.preview.example.com/cart?id=3#x')!;
    const production = normalizeUrl('https://www.example.com/cart?id=3')!;
    expect(pageKey(preview)).toBe('/cart?id=3');
    expect(pageKey(preview)).toBe(pageKey(production));
    expect(pageKey(normalizeUrl('https://app.example.com/#/settings')!)).toBe('/#/settings');
  });
});

describe('defaultSiteId', () => {
  test('is the host name without port, when it is a valid siteId', () => {
    expect(defaultSiteId('https://Shop.Example.com:8443/x')).toBe('shop.example.com');
    expect(defaultSiteId('http://localhost:3000/')).toBe('localhost');
    expect(defaultSiteId('http://[::1]/')).toBeUndefined();
    expect(defaultSiteId('nope')).toBeUndefined();
  });
});
