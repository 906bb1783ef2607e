import type { PageOutcome, ScannedPage } from './page-scan.js';
import { selectorOf } from './selector.js';

/** One axe finding per element: what the SARIF and JUnit reports list. */
export interface Finding {
  pageUrl: string;
  rule: string;
  kind: 'violation' | 'incomplete';
  impact: string | null;
  message: string;
  selector: string;
  html: string;
  helpUrl: string;
  tags: string[];
}

export function findingsOf(pages: PageOutcome[]): Finding[] {
  const out: Finding[] = [];
  for (const page of pages.filter((p): p is ScannedPage => p.ok)) {
    for (const kind of ['violation', 'incomplete'] as const) {
      const rules = kind === 'violation' ? page.axe.violations : page.axe.incomplete;
      for (const rule of rules) {
        for (const node of rule.nodes) {
          out.push({
            pageUrl: page.url,
            rule: rule.id,
            kind,
            impact: node.impact ?? rule.impact ?? null,
            message: node.failureSummary?.trim() || rule.help,
            selector: selectorOf(node.target),
            html: node.html,
            helpUrl: rule.helpUrl,
            tags: rule.tags,
          });
        }
      }
    }
  }
  return out;
}
