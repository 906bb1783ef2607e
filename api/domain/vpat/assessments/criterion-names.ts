import { WCAG20_FRAGMENTS } from '../../catalog/wcag20-ids.data.js';
import { WCAG_CRITERIA } from '../../../../core/catalog/wcag-criteria.data.js';

/**
 * A criterion as tools name it, to its WCAG 2.2 id: the number ("1.1.1"), WCAG 2.1/2.2's slug
 * ("WCAG21:non-text-content", "http://www.w3.org/TR/WCAG22/#non-text-content"), WCAG 2.0's fragment id
 * ("WCAG20:text-equiv-all") or the title ("Non-text Content"). Undefined: no WCAG 2.x criterion. Pure.
 */

const bySlug = new Map<string, string>();
const byTitle = new Map<string, string>();
for (const c of WCAG_CRITERIA) {
  bySlug.set(c.url.slice(c.url.indexOf('#') + 1).toLowerCase(), c.id);
  byTitle.set(c.title.toLowerCase(), c.id);
}
for (const [fragment, id] of Object.entries(WCAG20_FRAGMENTS)) bySlug.set(fragment, id);
const ids = new Set(WCAG_CRITERIA.map((c) => c.id));

export function criterionFromName(name: string): string | undefined {
  const text = name.trim();
  if (ids.has(text)) return text;
  // `WCAG21:slug`, `wcag20:slug`, `WCAG2:slug`, or an IRI ending in `#slug`.
  const slug = (/[#:]([a-z0-9-]+)$/i.exec(text)?.[1] ?? text).toLowerCase();
  return bySlug.get(slug) ?? byTitle.get(text.toLowerCase());
}

/** The WCAG 2.2 slug of a criterion id (the WCAG-EM Report Tool's test id after `WCAG22:`). */
export function slugOf(id: string): string {
  const c = WCAG_CRITERIA.find((x) => x.id === id);
  if (!c) throw new Error(`not a WCAG criterion: ${id}`);
  return c.url.slice(c.url.indexOf('#') + 1);
}
