import type { UsedHarness } from '../../helpers/harness.js';

export const SITE = 'shop';
export const PAGES = ['/', '/cart', '/checkout', '/about', '/help', '/terms'].map(
  (p) => `https://shop.example${p}`,
);

/**
 * One scan of the base branch: `color-contrast` (1.4.3) fails on the home page and needs review on the
 * cart; `document-title` (2.4.2) ran everywhere and found nothing; `image-alt` (1.1.1) ran clean.
 */
export async function seedScan(h: UsedHarness, key: string): Promise<string> {
  const res = await h.request<{ id: string }>('POST', '/api/v1/scans', {
    key,
    body: {
      siteId: SITE,
      url: 'https://shop.example/',
      sha: 'a'.repeat(40),
      branch: 'main',
      rules_run: ['color-contrast', 'document-title', 'image-alt'],
      pages: PAGES.map((url, i) => ({
        url,
        title: `Page ${i}`,
        issues: [
          ...(i === 0
            ? [
                {
                  rule: 'color-contrast',
                  impact: 'serious',
                  selector: '#hero',
                  wcag: ['1.4.3'],
                  message: 'low contrast',
                },
              ]
            : []),
          ...(i === 1
            ? [
                {
                  rule: 'color-contrast',
                  kind: 'incomplete',
                  impact: 'serious',
                  selector: '.promo',
                  wcag: ['1.4.3'],
                  message: 'background image: check by hand',
                },
              ]
            : []),
        ],
      })),
    },
  });
  if (res.status !== 201) throw new Error(`scan: ${res.status} ${res.text}`);
  return res.body.id;
}
