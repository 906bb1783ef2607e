import { scanWaiverLookup } from '../../../api/domain/waivers/scan-waivers.js';
import { compileWaivers, type WaiverRule } from '../../../core/waivers/match.js';

const NOW = '2026-11-23T12:00:00.000Z';
const LATER = '2026-12-23T12:00:00.000Z';

function waiver(w: Partial<WaiverRule> & { id: string; rule: string; createdAt: string }): WaiverRule {
  return { selector: null, urlPattern: null, fingerprint: null, expiresAt: LATER, revokedAt: null, ...w };
}

const pages = [
  { index: 0, url: 'https://shop.example/?utm_source=x', normalizedUrl: 'https://shop.example/' },
  { index: 1, url: '/products/42', normalizedUrl: 'https://shop.example/products/42' },
];
const issue = (pageIndex: number, rule = 'image-alt', selector: string | null = 'img.hero') => ({
  pageIndex,
  rule,
  selector,
  fingerprint: 'f'.repeat(64),
});

describe('scanWaiverLookup', () => {
  test('no active waiver: every issue is unwaived', () => {
    const revoked = waiver({ id: 'wvr_r', rule: 'image-alt', createdAt: NOW, revokedAt: NOW });
    const lookup = scanWaiverLookup(compileWaivers([revoked], NOW), pages);
    expect(lookup(issue(0))).toBeNull();
  });

  test('names the oldest matching waiver; url patterns see the submitted and the normalised URL', () => {
    const waivers = [
      waiver({ id: 'wvr_new', rule: 'image-alt', createdAt: '2026-11-10T00:00:00.000Z' }),
      waiver({
        id: 'wvr_old',
        rule: 'image-alt',
        urlPattern: '/products/*',
        createdAt: '2026-11-01T00:00:00.000Z',
      }),
      waiver({ id: 'wvr_sel', rule: 'label', selector: '#email', createdAt: '2026-11-02T00:00:00.000Z' }),
    ];
    const lookup = scanWaiverLookup(compileWaivers(waivers, NOW), pages);
    expect(lookup(issue(1))).toBe('wvr_old');
    // The old waiver's pattern does not match the home page: the newer, unrestricted one does.
    expect(lookup(issue(0))).toBe('wvr_new');
    expect(lookup(issue(0, 'label', '#email'))).toBe('wvr_sel');
    expect(lookup(issue(0, 'label', '#name'))).toBeNull();
    expect(lookup(issue(0, 'color-contrast'))).toBeNull();
  });

  test('an expired waiver matches nothing', () => {
    const expired = waiver({ id: 'wvr_e', rule: 'image-alt', createdAt: NOW, expiresAt: NOW });
    expect(scanWaiverLookup(compileWaivers([expired], NOW), pages)(issue(1))).toBeNull();
  });
});
