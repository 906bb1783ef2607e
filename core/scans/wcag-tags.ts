/** WCAG success-criterion ids (`1.4.3`) from axe-core's tags: the service's import and the CLI's report. */

/**
 * axe tags `wcag143` → `1.4.3`, `wcag1412` → `1.4.12`, `wcag258` → `2.5.8`. WCAG guidelines are single
 * digits (at most 1.4 / 2.5 / 3.3 / 4.1), so everything after the second digit is the criterion.
 * Level tags (`wcag2aa`, `wcag21a`) and others are ignored.
 */
export function criteriaFromAxeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const tag of tags) {
    const m = /^wcag([1-4])(\d)(\d{1,2})$/.exec(tag);
    if (!m) continue;
    const id = `${m[1]}.${m[2]}.${Number(m[3])}`;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}
