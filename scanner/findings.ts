import type { PageOutcome, ScannedPage } from './page-scan.js';
import { axeTargetToSelector } from '../core/scans/axe-target.js';
import type { LocatedNode, NodeSource } from './locate/locator.js';

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

export function findingsOf(pages: PageOutcome[]): Finding[] {
  const out: Finding[] = [];
  for (const page of pages.filter((p): p is ScannedPage => p.ok)) {
    for (const kind of ['violation', 'incomplete'] as const) {
      const rules = kind === 'violation' ? page.axe.violations : page.axe.incomplete;
      for (const rule of rules) {
        for (const node of rule.nodes as LocatedNode[]) {
          out.push({
            pageUrl: page.url,
            ...(page.viewport ? { viewport: page.viewport } : {}),
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
  }
  return out;
}
