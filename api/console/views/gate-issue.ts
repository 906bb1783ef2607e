import { type GateIssue } from '../../../core/gate/deploy-event.js';
import {
  fixHeading,
  fixSteps,
  hasFixList,
  htmlSnippet,
  oneLineMessage,
  sourceText,
  sourceUrl,
} from '../../../core/gate/finding-text.js';
import { markup, type Html } from '../../../core/text/html.js';
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
    ${issue.evidence ? markup`<dt>Evidence</dt><dd>${issue.evidence}</dd>` : null}
    ${issue.engine_change ? markup`<dt>Engine change</dt><dd>it differs only because the baseline was made with another engine</dd>` : null}`;
}

/** The commit the issues were found at, so a located issue links to its file there. */
export interface IssueCommit {
  repository: string | null;
  sha: string;
}

/** `path:line`, linked to the file at the commit when the site names its repository. */
function sourceFact(issue: GateIssue, commit: IssueCommit | null): Html | null {
  const text = sourceText(issue);
  if (!text) return null;
  const url = commit ? sourceUrl(issue, commit.repository, commit.sha) : null;
  const how = issue.source?.method
    ? ` (found by ${issue.source.method === 'static' ? 'the page file' : 'a build attribute'})`
    : '';
  return markup`<dt>Source</dt><dd>${url ? markup`<a href=${url}><code>${text}</code></a>` : markup`<code>${text}</code>`}${how}</dd>`;
}

function fixList(issue: GateIssue): Html | null {
  const steps = fixSteps(issue.message);
  if (!hasFixList(issue.message) || steps.length === 0) return null;
  return markup`<dt>${fixHeading(issue.message)}</dt><dd><ul class="fix">${steps.map((s) => markup`<li>${s}</li>`)}</ul></dd>`;
}

/** One issue of a deploy event: what, where, which criteria, how it was matched; `extra` goes below. */
export function gateIssueCard(
  issue: GateIssue,
  extra: Html | null,
  commit: IssueCommit | null = null,
  picture: Html | null = null,
): Html {
  const html = htmlSnippet(issue.html, 300);
  return markup`<li class="issue">
    <p>${impactBadge(issue.impact)} <strong>${oneLineMessage(issue)}</strong></p>
    <dl class="facts">
      ${sourceFact(issue, commit)}
      <dt>Page</dt><dd>${issue.page_url}</dd>
      ${issue.viewport ? markup`<dt>Viewport</dt><dd>${issue.viewport}</dd>` : null}
      ${html ? markup`<dt>Element</dt><dd><code>${html}</code></dd>` : null}
      ${issue.selector ? markup`<dt>Selector</dt><dd><code>${issue.selector}</code></dd>` : null}
      ${picture}
      ${fixList(issue)}
      ${issue.wcag.length ? markup`<dt>WCAG</dt><dd>${issue.wcag.join(', ')}</dd>` : null}
      ${matchFacts(issue)}
      ${issue.help_url ? markup`<dt>Help</dt><dd>${externalLink(issue.help_url, `About ${issue.rule}`)}</dd>` : null}
    </dl>
    ${extra}
  </li>`;
}
