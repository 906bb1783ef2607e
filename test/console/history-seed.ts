import type { CreatedScan } from '../helpers/api-types.js';
import type { Harness } from '../helpers/harness.js';

const DAY_MS = 86_400_000;

/** The first day of the history page's default range (the last 90 days, today included). */
export const firstDay = (): string =>
  new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) - 89 * DAY_MS)
    .toISOString()
    .slice(0, 10);
/** Day `n` of the range, as the page's table names it. */
export const dayName = (n: number): string =>
  new Date(Date.parse(`${firstDay()}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

type Issue = [page: string, rule: string, impact: string, selector: string];
export const A: Issue = ['/', 'image-alt', 'critical', '#logo'];
export const B: Issue = ['/cart', 'color-contrast', 'serious', '#buy'];
export const C: Issue = ['/', 'link-name', 'minor', '#nav'];
export const D: Issue = ['/about', 'region', 'moderate', '#main'];
export const E: Issue = ['/', 'label', 'serious', '#q'];
export const F: Issue = ['/cart', 'button-name', 'critical', '#go'];
export const G: Issue = ['/', 'heading-order', 'moderate', '#h'];

/**
 * Nine full scans of main over the page's default 90 days (day 0 is its first day), imported with
 * `scanned_at`: A (critical) from day 0 on, overdue since day 30; B (serious) fixed on day 30 and back on
 * day 60 (a regression, due on day 120); C (minor) fixed on day 45; D (moderate) on /about, which
 * leaves the scans on day 70 (no longer scanned); E (serious) new on day 20, overdue since day 80; F
 * (critical) new on day 75; G (moderate) new on day 85. Open at the end: A, B, E, F, G.
 */
export const STORY: Array<[day: number, pages: string[], issues: Issue[]]> = [
  [0, ['/', '/cart', '/about'], [A, B, C, D]],
  [10, ['/', '/cart', '/about'], [A, B, C, D]],
  [20, ['/', '/cart', '/about'], [A, B, C, D, E]],
  [30, ['/', '/cart', '/about'], [A, C, D, E]],
  [45, ['/', '/cart', '/about'], [A, D, E]],
  [60, ['/', '/cart', '/about'], [A, B, D, E]],
  [70, ['/', '/cart'], [A, B, E]],
  [75, ['/', '/cart'], [A, B, E, F]],
  [85, ['/', '/cart'], [A, B, E, F, G]],
];

export interface HistorySeed {
  key: string;
  siteId: string;
  /** The scan of each day of the story. */
  scanOfDay: Map<number, string>;
  otherSiteId: string;
}

/** The story's site in org acme, and a site of another org. */
export async function seedHistory(h: Harness): Promise<HistorySeed> {
  const key = await h.createKey({ org: 'acme', scopes: ['ingest', 'read'], name: 'Ada' });
  const other = await h.createKey({ org: 'globex', scopes: ['ingest', 'read'] });
  const siteId = 'shop-web';
  const scanOfDay = new Map<number, string>();
  const post = async (k: string, site: string, day: number, pages: string[], issues: Issue[]) => {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: k,
      body: {
        siteId: site,
        url: 'https://shop.example/',
        branch: 'main',
        scanned_at: new Date(Date.parse(`${dayName(day)}T01:00:00Z`)).toISOString(),
        pages: pages.map((p) => ({
          url: `https://shop.example${p}`,
          issues: issues
            .filter((i) => i[0] === p)
            .map(([, rule, impact, selector]) => ({ rule, impact, selector })),
        })),
      },
    });
    if (res.status !== 201) throw new Error(`scan: ${res.status} ${res.text}`);
    return res.body.id;
  };
  for (const [day, pages, issues] of STORY) scanOfDay.set(day, await post(key, siteId, day, pages, issues));
  await post(other, 'globex-web', 0, ['/'], [A]);
  return { key, siteId, scanOfDay, otherSiteId: 'globex-web' };
}
