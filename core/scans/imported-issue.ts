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
  source: IssueSource | null;
}

/** How a scanner found the element in the repository (null: the sender did not say). */
export type SourceMethod = 'attribute' | 'static';
export const SOURCE_METHODS: readonly SourceMethod[] = ['attribute', 'static'];

/** Where an issue's element comes from in the repository: a path relative to its root, 1-based line and column. */
export interface IssueSource {
  path: string;
  line: number | null;
  column: number | null;
  method: SourceMethod | null;
}

/** The stored form of a location as a sender gives it (line, column and method optional). */
export function issueSource(
  s:
    | { path: string; line?: number | null; column?: number | null; method?: SourceMethod | null }
    | null
    | undefined,
): IssueSource | null {
  if (!s) return null;
  return { path: s.path, line: s.line ?? null, column: s.column ?? null, method: s.method ?? null };
}
