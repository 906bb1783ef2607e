import type { PageOutcome, ScannedPage } from './page-scan.js';
import { axeTargetToSelector, type AxeTarget } from '../core/scans/axe-target.js';
import type { NodeSource } from './locate/locator.js';

/** One axe finding per element: what the SARIF and JUnit reports list. */
export interface Finding {
  pageUrl: string;
  /** The viewport the page was scanned at, when one was named: part of the identity. */
  viewport?: string;
  rule: string;
  kind: 'violation' | 'incomplete';
  impact: string | null;
  message: string;
  selector: string;
  html: string;
  helpUrl: string;
  /** axe-core's one-line help ("Images must have alternative text") and the rule's description. */
  help: string;
  description: string;
  tags: string[];
  /** Where the element comes from in the repository, when the scanner located it. */
  source: NodeSource | null;
}

/** The parts of an axe-core rule result a finding is made of (axe-core's own, or a result file's, checked). */
interface AxeRuleLike {
  id: string;
  impact?: string | null;
  help: string;
  helpUrl: string;
  description: string;
  tags: string[];
  nodes: Array<{
    target: AxeTarget;
    html: string;
    impact?: string | null;
    failureSummary?: string | null;
    source?: NodeSource | null;
  }>;
}

/** One finding per element of a page's violations and incomplete rules. */
export function axeFindings(
  pageUrl: string,
  axe: { violations: readonly AxeRuleLike[]; incomplete: readonly AxeRuleLike[] },
  viewport?: string | null,
): Finding[] {
  const out: Finding[] = [];
  for (const kind of ['violation', 'incomplete'] as const) {
    for (const rule of kind === 'violation' ? axe.violations : axe.incomplete) {
      for (const node of rule.nodes) {
        out.push({
          pageUrl,
          ...(viewport ? { viewport } : {}),
          rule: rule.id,
          kind,
          impact: node.impact ?? rule.impact ?? null,
          message: node.failureSummary?.trim() || rule.help,
          selector: axeTargetToSelector(node.target),
          html: node.html,
          helpUrl: rule.helpUrl,
          help: rule.help,
          description: rule.description,
          tags: rule.tags,
          source: node.source ?? null,
        });
      }
    }
  }
  return out;
}

export function findingsOf(pages: PageOutcome[]): Finding[] {
  return pages
    .filter((p): p is ScannedPage => p.ok)
    .flatMap((page) => axeFindings(page.url, page.axe, page.viewport));
}
