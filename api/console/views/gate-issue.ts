import { type GateIssue } from '../../domain/gate/deploy-event.js';
import { markup, type Html } from '../html.js';
import { impactBadge } from './parts.js';
import { externalLink } from './external-link.js';

const MATCH_TEXT: Record<GateIssue['match'], string> = {
  fingerprint: 'the same fingerprint as a baseline issue',
  similar: 'a similar element in the baseline (its selector or position changed)',
  none: 'no baseline issue is this element',
};

/** How the gate told this issue apart from the baseline's, as the deploy event recorded it. */
function matchFacts(issue: GateIssue): Html {
  const base = issue.baseline_issue;
  return markup`<dt>Matched by</dt>
    <dd>${MATCH_TEXT[issue.match] ?? issue.match}${issue.similarity !== null ? ` (similarity ${issue.similarity.toFixed(2)})` : ''}</dd>
    ${base && issue.match === 'similar' ? markup`<dt>Baseline element</dt><dd><code>${base.selector ?? '—'}</code> on ${base.page_url}</dd>` : null}
    ${issue.evidence ? markup`<dt>Evidence</dt><dd>${issue.evidence}</dd>` : null}`;
}

/** One issue of a deploy event: what, where, which criteria, how it was matched; `extra` goes below. */
export function gateIssueCard(issue: GateIssue, extra: Html | null): Html {
  return markup`<li class="issue">
    <p>${impactBadge(issue.impact)} <strong>${issue.rule}</strong>: ${issue.message ?? ''}</p>
    <dl class="facts">
      <dt>Page</dt><dd>${issue.page_url}</dd>
      ${issue.selector ? markup`<dt>Element</dt><dd><code>${issue.selector}</code></dd>` : null}
      ${issue.wcag.length ? markup`<dt>WCAG</dt><dd>${issue.wcag.join(', ')}</dd>` : null}
      ${issue.source ? markup`<dt>Source</dt><dd><code>${issue.source.path}${issue.source.line ? `:${issue.source.line}` : ''}</code></dd>` : null}
      ${matchFacts(issue)}
      ${issue.help_url ? markup`<dt>Help</dt><dd>${externalLink(issue.help_url, `About ${issue.rule}`)}</dd>` : null}
    </dl>
    ${extra}
  </li>`;
}
