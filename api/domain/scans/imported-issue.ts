import type { Impact, IssueKind } from '../impact.js';

/** One issue as every input form (native, axe, pa11y) is turned into before it is stored. */

export interface ImportedIssue {
  rule: string;
  impact: Impact | null;
  kind: IssueKind;
  message: string | null;
  selector: string | null;
  html: string | null;
  /** WCAG criterion ids (`1.4.3`). */
  wcag: string[];
  helpUrl: string | null;
  source: { path: string; line: number | null } | null;
}
