import { keepQueuedHistory } from '../history/keep.js';
import type { ApiContext } from '../../context.js';
import { csvTable } from '../../../core/text/csv.js';
import { section508Figures, type Section508Figures } from '../../domain/portfolio/section508.js';
import type { Section508 } from '../../schemas/portfolio/section508.js';
import { resultsInYear } from '../../store/portfolio/assessed.js';
import { orgSites } from '../../store/portfolio/figures.js';
import { readYearPages } from '../../store/portfolio/pages.js';
import { groupSites } from './fixes.js';

/** The Section 508 figures of a year, per site and in all, from the kept pages and people's results. */

const present = (f: Section508Figures) => ({
  pages_in_scope: f.pagesInScope,
  tested_automatically: f.testedAutomatically,
  assessed_by_people: f.assessedByPeople,
  fully_conformant: f.fullyConformant,
});

export async function section508(
  ctx: ApiContext,
  org: string,
  query: { year?: number; group?: string },
  now: Date = new Date(),
): Promise<Section508> {
  const year = query.year ?? now.getUTCFullYear();
  await keepQueuedHistory(ctx.db, { org });
  const scope = query.group === undefined ? undefined : await groupSites(ctx, org, query.group);
  const [sites, pages, assessed] = await Promise.all([
    orgSites(ctx.db, org, scope),
    readYearPages(ctx.db, org, scope, year),
    resultsInYear(ctx.db, org, scope, year),
  ]);
  const rows = sites.map((s) => ({
    siteId: s.siteId,
    ...present(
      section508Figures(
        pages.filter((p) => p.siteId === s.siteId),
        assessed.filter((a) => a.siteId === s.siteId),
      ),
    ),
  }));
  const sum = (k: keyof ReturnType<typeof present>) => rows.reduce((a, r) => a + r[k], 0);
  return {
    year,
    group: query.group ?? null,
    totals: {
      pages_in_scope: sum('pages_in_scope'),
      tested_automatically: sum('tested_automatically'),
      assessed_by_people: sum('assessed_by_people'),
      fully_conformant: sum('fully_conformant'),
    },
    sites: rows,
  };
}

/** One row per site: the org's figures are their sums. */
export function section508Csv(s: Section508): string {
  return csvTable(
    ['site_id', 'year', 'pages_in_scope', 'tested_automatically', 'assessed_by_people', 'fully_conformant'],
    s.sites.map((r) => [
      r.siteId,
      s.year,
      r.pages_in_scope,
      r.tested_automatically,
      r.assessed_by_people,
      r.fully_conformant,
    ]),
  );
}
