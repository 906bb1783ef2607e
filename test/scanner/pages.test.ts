import { BrowserError, resolveBrowser, RUNNER_CHROME } from '../../scanner/browser.js';
import { ontoOrigin, parseSitemap, rewriteUrl, uniquePages } from '../../scanner/pages.js';
import { globsMatcher } from '../../scanner/url-match.js';

describe('which browser', () => {
  const files =
    (...present: string[]) =>
    (f: string) =>
      present.includes(f);

  test('chrome-path, then CHROME_PATH, then the runner Chrome, then chromium on PATH', () => {
    const env = { CHROME_PATH: '/opt/chrome', PATH: '/usr/local/bin:/usr/bin' };
    const all = files('/x/chrome', '/opt/chrome', RUNNER_CHROME, '/usr/bin/chromium');
    expect(resolveBrowser({ chromePath: '/x/chrome', env, isFile: all })).toBe('/x/chrome');
    expect(resolveBrowser({ chromePath: null, env, isFile: all })).toBe('/opt/chrome');
    expect(resolveBrowser({ chromePath: null, env: { PATH: env.PATH }, isFile: all })).toBe(RUNNER_CHROME);
    expect(
      resolveBrowser({ chromePath: null, env: { PATH: env.PATH }, isFile: files('/usr/bin/chromium') }),
    ).toBe('/usr/bin/chromium');
  });

  test('none found: the error names all four places; a named path that is missing is not replaced', () => {
    const lookup = () => resolveBrowser({ chromePath: null, env: { PATH: '/usr/bin' }, isFile: files() });
    expect(lookup).toThrow(BrowserError);
    expect(lookup).toThrow(/chrome-path.*CHROME_PATH.*\/usr\/bin\/google-chrome.*"chromium" on PATH/s);
    expect(() =>
      resolveBrowser({ chromePath: '/typo/chrome', env: {}, isFile: files(RUNNER_CHROME) }),
    ).toThrow('chrome-path "/typo/chrome" is not an executable file');
  });
});

describe('pages', () => {
  test('sitemap and sitemap index locations, entities and CDATA', () => {
    expect(
      parseSitemap(
        '<urlset><url><loc> https://a.test/?x=1&amp;y=2 </loc></url><url><loc><![CDATA[https://a.test/b]]></loc></url></urlset>',
      ),
    ).toEqual({ index: false, locs: ['https://a.test/?x=1&y=2', 'https://a.test/b'] });
    expect(
      parseSitemap('<sitemapindex><sitemap><loc>https://a.test/s1.xml</loc></sitemap></sitemapindex>'),
    ).toEqual({
      index: true,
      locs: ['https://a.test/s1.xml'],
    });
  });

  test('rewrite aims production URLs at a preview', () => {
    const rw = { from: 'https://shop.example.com', to: 'https://pr-7.preview.example.com' };
    expect(rewriteUrl('https://shop.example.com/cart', rw)).toBe('https://pr-7.preview.example.com/cart');
    expect(rewriteUrl('https://cdn.example.com/x', rw)).toBe('https://cdn.example.com/x');
  });

  test('duplicates and fragment variants removed, first occurrence order kept, excluded globs dropped', () => {
    expect(
      uniquePages(
        [
          'https://a.test/b',
          'https://a.test/',
          'https://a.test/b#top',
          'https://a.test/admin/x',
          'https://a.test/c',
        ],
        ['/admin/**'],
      ),
    ).toEqual(['https://a.test/b', 'https://a.test/', 'https://a.test/c']);
    expect(() => uniquePages(['/relative'], [])).toThrow('"/relative" is not an absolute http(s) URL');
  });

  test('one page, one address: an index file, its folder, a default port and a trailing slash are one page, scanned as first written', () => {
    expect(
      uniquePages(
        [
          'https://a.test/index.html',
          'https://a.test/',
          'https://a.test:443/index.htm#top',
          'https://a.test/docs/',
          'https://a.test/docs/index.html',
          'https://a.test/docs',
          'https://a.test/#/settings',
          'https://a.test/#/settings/',
        ],
        [],
      ),
      // The URL opened is the one written first (a server may need its index.html); a route is a page.
    ).toEqual(['https://a.test/index.html', 'https://a.test/docs/', 'https://a.test/#/settings']);
    // An exclude glob written for either spelling keeps the page out.
    expect(uniquePages(['https://a.test/admin/index.html', 'https://a.test/b'], ['/admin'])).toEqual([
      'https://a.test/b',
    ]);
  });

  test('a served folder: paths are its pages, and its sitemap names production, taken onto it by path', () => {
    const served = 'http://127.0.0.1:4173';
    expect(uniquePages(['/', '/about', '/index.html', 'https://a.test/x'], [], served)).toEqual([
      'http://127.0.0.1:4173/',
      'http://127.0.0.1:4173/about',
      'https://a.test/x',
    ]);
    expect(ontoOrigin('https://shop.example.com/en/about?tab=2', served)).toBe(
      'http://127.0.0.1:4173/en/about?tab=2',
    );
  });

  test('globs: * stays in a segment, ** crosses them, a scheme matches the whole URL', () => {
    const m = globsMatcher(['/blog/*', 'https://a.test/private/**', '/login*']);
    expect(m('https://a.test/blog/post')).toBe(true);
    expect(m('https://a.test/blog/2024/post')).toBe(false);
    expect(m('https://a.test/private/a/b')).toBe(true);
    expect(m('https://b.test/private/a')).toBe(false);
    expect(m('https://a.test/login?next=/account')).toBe(true);
  });
});
