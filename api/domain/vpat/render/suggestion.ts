import type { ReportCriterion, VpatReport } from '../report.js';

/** How a suggestion opens in every format, so a reader sees at once that it is not the row's answer. */
export const SUGGESTION_LABEL = 'Suggested: Not Applicable.';

/**
 * The suggestion a download shows in a row's remarks, split into its label and its explanation; null when
 * nothing is suggested. Only a draft's undecided row shows one: the row keeps its own level (Not Evaluated)
 * until a person answers, and a published report's rows were all decided by people, so it shows none.
 */
export function shownSuggestion(
  report: Pick<VpatReport, 'status'>,
  c: ReportCriterion,
): { label: string; text: string } | null {
  if (report.status !== 'draft' || !c.suggestion || c.override || !c.needs_review) return null;
  const reason = c.suggestion.reason.trim();
  const text = reason.startsWith(SUGGESTION_LABEL) ? reason.slice(SUGGESTION_LABEL.length).trim() : reason;
  return { label: SUGGESTION_LABEL, text };
}

/** The suggestion as one plain sentence group (Markdown, PDF and OpenACR notes), or null. */
export function suggestionText(report: Pick<VpatReport, 'status'>, c: ReportCriterion): string | null {
  const s = shownSuggestion(report, c);
  return s ? `${s.label} ${s.text}` : null;
}
