/** A deploy event as the MCP tools answer it: the decision for `gate`, the new issues for `deploy_issues`. */
import type { DeployEvent, GateIssue } from '../gate/deploy-event.js';
import { sourceText } from '../gate/finding-text.js';
import type { ExplainedElement } from '../catalog/explanation.js';
import { IMPACTS, type Impact } from '../impact.js';
import { ToolError } from './results.js';

export function gateView(event: DeployEvent, detailsUrl: string | null) {
  const { new: added, existing, fixed, waived } = event.counts;
  return {
    deploy_id: event.id,
    siteId: event.siteId,
    sha: event.sha,
    passed: event.passed,
    reasons: event.reasons.map((r) => ({ code: r.code, message: r.message })),
    counts: { new: added, existing, fixed, waived },
    new_by_impact: Object.fromEntries(IMPACTS.map((i) => [i, event.counts.by_impact[i].new])) as Record<
      Impact,
      number
    >,
    baseline: event.baseline ? { sha: event.baseline.sha, reason: event.baseline.reason } : null,
    details_url: detailsUrl,
  };
}

function issueView(i: GateIssue) {
  return {
    fingerprint: i.fingerprint,
    rule: i.rule,
    impact: i.impact,
    kind: i.kind,
    page_url: i.page_url,
    selector: i.selector,
    html: i.html ?? null,
    message: i.message,
    location: sourceText(i),
    wcag: i.wcag,
    help_url: i.help_url,
  };
}

export function deployIssuesView(event: DeployEvent) {
  return {
    deploy_id: event.id,
    siteId: event.siteId,
    sha: event.sha,
    passed: event.passed,
    new_issues: event.new_issues.map(issueView),
    new_issues_total: event.new_issues_total,
  };
}

/** The element of a deploy event's new issue, to explain it; a tool error when the event lists none such. */
export function deployIssueElement(
  event: DeployEvent,
  fingerprint: string,
): { rule: string; element: ExplainedElement } {
  const issue = event.new_issues.find((i) => i.fingerprint === fingerprint);
  if (!issue)
    throw new ToolError(
      `The deploy event ${event.id} lists no new issue with the fingerprint ${fingerprint}.`,
    );
  return {
    rule: issue.rule,
    element: {
      page_url: issue.page_url,
      selector: issue.selector ?? '',
      html: issue.html ?? '',
      location: sourceText(issue),
      message: issue.message ?? '',
    },
  };
}
