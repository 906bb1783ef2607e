import type { WcagLevel, WcagVersion } from '../../../core/catalog/wcag-types.js';
import { WCAG_CRITERIA } from '../../../core/catalog/wcag-criteria.data.js';

export const WCAG_VERSIONS: readonly WcagVersion[] = ['2.0', '2.1', '2.2'];
export const WCAG_LEVELS: readonly WcagLevel[] = ['A', 'AA', 'AAA'];

export interface WcagCriterion {
  id: string;
  title: string;
  level: WcagLevel;
  since: WcagVersion;
  /** True for 4.1.1 Parsing in WCAG 2.2 (obsolete and removed; still a row of the VPAT 2.5 tables). */
  obsolete: boolean;
  url: string;
}

const LEVEL_RANK: Record<WcagLevel, number> = { A: 1, AA: 2, AAA: 3 };

/** Compares criterion ids numerically ("1.4.10" after "1.4.9"). */
export function compareCriterionIds(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The success criteria of one WCAG version up to and including `level` (AA = A and AA), in document order.
 * WCAG 2.2 keeps 4.1.1 as an obsolete row, as the VPAT 2.5 tables do.
 */
export function wcagCriteria(version: WcagVersion, level: WcagLevel = 'AAA'): WcagCriterion[] {
  return WCAG_CRITERIA.filter((c) => c.since <= version && LEVEL_RANK[c.level] <= LEVEL_RANK[level])
    .map((c) => ({
      id: c.id,
      title: c.title,
      level: c.level,
      since: c.since,
      obsolete: c.removedIn !== undefined && c.removedIn <= version,
      url: c.url,
    }))
    .sort((a, b) => compareCriterionIds(a.id, b.id));
}

/** Every criterion id any WCAG 2.x version defines. */
export function isWcagCriterionId(id: string): boolean {
  return WCAG_CRITERIA.some((c) => c.id === id);
}

/** Does `level` include criteria of `criterionLevel`? (AA includes A.) */
export function levelIncludes(level: WcagLevel, criterionLevel: WcagLevel): boolean {
  return LEVEL_RANK[criterionLevel] <= LEVEL_RANK[level];
}
