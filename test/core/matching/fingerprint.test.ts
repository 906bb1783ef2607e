import { FINGERPRINT_VERSION, issueFingerprint } from '../../../core/matching/fingerprint.js';
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
