import { normalizeUrl, pageKey } from '../../../core/url-normalisation.js';
import type { AssessmentResult } from '../vpat/assessments/assessment.js';
import { pageOutcomes } from '../vpat/assessments/verdict.js';

/**
 * The Section 508 figures of a year, per site (docs/portfolio.md). Pages are addresses within a site
 * (path, query and route; the host left out, as issue identities do):
 * - tested automatically: in a full scan of the base branch that year;
 * - assessed by people: with a person's outcome (anything but untested) written that year, its own or
 *   the whole sample's;
 * - in scope: either;
 * - fully conformant: tested automatically, no open issue at its last scan of the year, and no failed
 *   human result that year. Pure.
 */

export interface Section508Figures {
  pagesInScope: number;
  testedAutomatically: number;
  assessedByPeople: number;
  fullyConformant: number;
}

export interface ScannedPage {
  page: string;
  /** Open issues at its last scan of the year. */
  openIssues: number;
}

export interface AssessedSample {
  sample: readonly string[];
  results: readonly AssessmentResult[];
}

const addressOf = (url: string): string => {
  const normalised = normalizeUrl(url);
  return normalised ? pageKey(normalised) : url;
};

/** Each assessed page's address, and whether a person failed it on some criterion. */
export function assessedPages(assessments: readonly AssessedSample[]): Map<string, { failed: boolean }> {
  const out = new Map<string, { failed: boolean }>();
  for (const a of assessments) {
    const byCriterion = new Map<string, AssessmentResult[]>();
    for (const r of a.results) byCriterion.set(r.criterion, [...(byCriterion.get(r.criterion) ?? []), r]);
    for (const results of byCriterion.values()) {
      for (const { page, outcome } of pageOutcomes(a.sample, results)) {
        if (outcome === 'untested') continue;
        const key = addressOf(page);
        const seen = out.get(key) ?? { failed: false };
        out.set(key, { failed: seen.failed || outcome === 'failed' });
      }
    }
  }
  return out;
}

export function section508Figures(
  scanned: readonly ScannedPage[],
  assessments: readonly AssessedSample[],
): Section508Figures {
  const people = assessedPages(assessments);
  const scope = new Set([...scanned.map((p) => p.page), ...people.keys()]);
  return {
    pagesInScope: scope.size,
    testedAutomatically: scanned.length,
    assessedByPeople: people.size,
    fullyConformant: scanned.filter((p) => p.openIssues === 0 && !people.get(p.page)?.failed).length,
  };
}
