import type { Impact, IssueKind } from '../../../core/impact.js';
import type { SourceMethod } from '../../../core/scans/imported-issue.js';

/**
 * A scan body's pages as the domain reads them once the API's schemas have validated them (defaults
 * applied). The schemas in api/schemas/scans/ are checked against these types at compile time.
 */

export interface AxeNodeInput {
  /** One entry per frame level; an entry is an array when the element sits in shadow DOM. */
  target: (string | string[])[];
  html?: string | null;
  impact?: Impact | null;
  failureSummary?: string | null;
  /** Not axe-core's: where the scanner found the element in the repository (a11y-gate's scanner adds it). */
  source?: SourceLocationInput | null;
}

export interface SourceLocationInput {
  path: string;
  line?: number | null;
  column?: number | null;
  method?: SourceMethod | null;
}

export interface AxeRuleResultInput {
  id: string;
  impact?: Impact | null;
  tags: string[];
  description?: string | null;
  help?: string | null;
  helpUrl?: string | null;
  nodes: AxeNodeInput[];
}

export interface AxeResultsInput {
  testEngine?: { name?: string; version?: string };
  url?: string;
  violations: AxeRuleResultInput[];
  incomplete: AxeRuleResultInput[];
  passes: { id: string }[];
  inapplicable: { id: string }[];
}

export interface Pa11yIssueInput {
  code: string;
  type?: string;
  typeCode?: number;
  message?: string | null;
  context?: string | null;
  selector?: string | null;
  runner?: string;
  runnerExtras?: {
    impact?: Impact | null;
    helpUrl?: string | null;
    help?: string | null;
    description?: string | null;
  };
}

export type Pa11yInput =
  Pa11yIssueInput[] | { documentTitle?: string | null; pageUrl?: string | null; issues: Pa11yIssueInput[] };

export interface NativeIssueInput {
  rule: string;
  impact?: Impact | null;
  kind: IssueKind;
  message?: string | null;
  selector?: string | null;
  html?: string | null;
  wcag?: string[];
  help_url?: string | null;
  source?: SourceLocationInput | null;
}

export interface ScanPageInput {
  url: string;
  /** The viewport the page was scanned at (`390x844`, `iPhone 13`); a page at two is two pages. */
  viewport?: string | null;
  title?: string | null;
  final_url?: string | null;
  http_status?: number | null;
  issues?: NativeIssueInput[];
  axe?: AxeResultsInput;
  pa11y?: Pa11yInput;
  /** A native or pa11y page's rules that ran and found nothing to test (an axe page lists its own). */
  rules_inapplicable?: string[];
  /** Elements the claimable rules passed on: what tells a verified fix from a removed element. */
  passes?: PassingElementInput[];
}

export interface PassingElementInput {
  rule: string;
  selector?: string | null;
  html?: string | null;
}
