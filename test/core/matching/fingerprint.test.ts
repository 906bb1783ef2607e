import {
  FINGERPRINT_VERSION,
  issueFingerprint,
  viewportPageKey,
} from '../../../core/matching/fingerprint.js';
import { normalizeUrl, pageKey } from '../../../core/url-normalisation.js';

const key = (url: string) => pageKey(normalizeUrl(url)!);

describe('issueFingerprint', () => {
  test('is sha256 of rule | page key | normalised selector, and has a version', () => {
    // 2: single-page-app routes are normalised like paths (tracking parameters, order, trailing slash).
    expect(FINGERPRINT_VERSION).toBe(2);
    // echo -n 'image-alt|/|img.hero' | sha256sum
    // printf '%s' 'image-alt|/|img.hero' | sha256sum
    expect(issueFingerprint({ rule: 'image-alt', pageKey: '/', selector: 'img.hero' })).toBe(
      '93e3a19dfce33e4fce303fb1157c08dafeb5c6462b695015274eff85f1c15b95',
    );
  });

  test('the same issue on two scans gives the same fingerprint', () => {
    const a = issueFingerprint({
      rule: 'color-contrast',
      pageKey: key('https://www.example.com/cart/?utm_source=mail#top'),
      selector: '.css-1x2y3z > a',
    });
    const b = issueFingerprint({
      rule: 'color-contrast',
      pageKey: key('https://pr-7.preview.example.com:443/cart'),
      selector: '.css-8k7j6h  >  a',
    });
    expect(a).toBe(b);
  });

  test('a different element, page or rule gives a different fingerprint', () => {
    const base = { rule: 'image-alt', pageKey: '/cart', selector: 'img.hero' };
    const fp = issueFingerprint(base);
    expect(issueFingerprint({ ...base, selector: 'img.teaser' })).not.toBe(fp);
    expect(issueFingerprint({ ...base, pageKey: '/checkout' })).not.toBe(fp);
    expect(issueFingerprint({ ...base, rule: 'role-img-alt' })).not.toBe(fp);
    expect(issueFingerprint({ ...base, selector: null })).not.toBe(fp);
  });
});

describe('the viewport in an issue identity', () => {
  const base = { rule: 'button-name', pageKey: '/cart', selector: 'button.menu' };

  test('an issue without a viewport keeps the fingerprint it had before viewports existed', () => {
    // printf '%s' 'button-name|/cart|button.menu' | sha256sum
    const before = '5293657aa64ba8d1a933b0bf800cef4a0fa803e9c31370acab1b19b5bbcee497';
    expect(issueFingerprint(base)).toBe(before);
    expect(issueFingerprint({ ...base, viewport: null })).toBe(before);
    expect(viewportPageKey('/cart', null)).toBe('/cart');
  });

  test('the same element at two viewports is two issues; the page key names the viewport', () => {
    const narrow = issueFingerprint({ ...base, viewport: '390x844' });
    // printf '%s' 'button-name|/cart @390x844|button.menu' | sha256sum
    expect(narrow).toBe('7fbbc17944909d31688e3cb49667637c3cc2f72851019c8c96a00a405b9cb84b');
    const wide = issueFingerprint({ ...base, viewport: '1280x720' });
    expect(new Set([issueFingerprint(base), narrow, wide]).size).toBe(3);
    expect(narrow).toBe(issueFingerprint({ ...base, pageKey: viewportPageKey('/cart', '390x844') }));
    expect(viewportPageKey('/cart', 'iPhone 13')).toBe('/cart @iPhone 13');
    // A normalised URL has no space, so no page without a viewport has a key with one.
    expect(key('https://shop.example/cart @390x844')).not.toBe(viewportPageKey('/cart', '390x844'));
  });
});
