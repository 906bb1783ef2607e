import { fixHeading, fixSteps, htmlSnippet } from '../../core/gate/finding-text.js';
import { screenshotAlt } from '../../core/scans/pictures.js';
import { markup, type Html } from '../../core/text/html.js';
import { plural } from '../../core/text/wording.js';
import { isHttpUrl } from '../../core/url-normalisation.js';
import type { ReportLayout, StatusSection } from './groups.js';
import type { ReportDecision, ReportItem, ReportStatus } from './model.js';

/** The issues of the report: the filters, then a section per status and a group per impact inside it. */

const STATUS_TITLE: Record<ReportStatus, string> = {
  new: 'New issues',
  existing: 'Existing issues',
  ignored: 'Ignored issues',
  fixed: 'Fixed: in the baseline, no longer found',
  found: 'Issues found',
};

const STATUS_NOTE: Record<ReportStatus, string> = {
  new: 'Not in the baseline: these fail the gate when a threshold counts them.',
  existing: 'Already in the baseline: the gate does not fail on them.',
  ignored: 'Left aside by the configuration’s ignores; counted apart.',
  fixed: 'Entries of the baseline that this scan did not find again.',
  found: 'No gate judged them.',
};

function statusTitle(status: ReportStatus, decision: ReportDecision): string {
  return status === 'ignored' && decision.leftAside === 'waived' ? 'Waived issues' : STATUS_TITLE[status];
}

export const impactName = (impact: string) => (impact === 'unknown' ? 'unknown impact' : impact);

export function impactBadge(impact: string | null): Html {
  const name = impact ?? 'unknown';
  return markup`<span class=${`badge ${name}`}>${impactName(name)}</span>`;
}

function filters(l: ReportLayout): Html {
  return markup`<section class="filters" aria-labelledby="filters-h">
    <h3 id="filters-h">Filter the issues</h3>
    <fieldset>
      <legend>Impact</legend>
      <div class="choices">
        ${l.impacts.map(
          (impact) =>
            markup`<label><input type="checkbox" id=${`f-impact-${impact}`} checked /> ${impactName(impact)}</label>`,
        )}
      </div>
    </fieldset>
    <div class="field">
      <label for="f-rule">Rule</label>
      <select id="f-rule">
        <option class="all" selected>All rules (${l.rules.length})</option>
        ${l.rules.map((rule, n) => markup`<option class=${`r${n}`}>${rule}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="f-page">Page</label>
      <select id="f-page">
        <option class="all" selected>All pages (${l.pages.length})</option>
        ${l.pages.map((page, n) => markup`<option class=${`p${n}`}>${page}</option>`)}
      </select>
    </div>
  </section>`;
}

/** A URL from the scan: a link only when it is http(s), so `javascript:` or `data:` never becomes one. */
function helpLink(item: ReportItem): Html | null {
  if (!item.helpUrl) return null;
  const label = `How to fix ${item.rule}`;
  return isHttpUrl(item.helpUrl)
    ? markup`<a href=${item.helpUrl}>${label}</a>`
    : markup`<span>${label}: <code>${item.helpUrl}</code></span>`;
}

function fixFacts(item: ReportItem): Html | null {
  const steps = fixSteps(item.message);
  const link = helpLink(item);
  if (steps.length === 0 && !item.help && !link) return null;
  return markup`<dt>How to fix</dt>
    <dd>
      ${steps.length > 0 ? markup`<p>${fixHeading(item.message)}:</p><ul>${steps.map((s) => markup`<li>${s}</li>`)}</ul>` : null}
      ${item.help || link ? markup`<p>${item.help ? `${item.help}. ` : ''}${link}</p>` : null}
    </dd>`;
}

function picture(item: ReportItem): Html | null {
  const shot = item.picture;
  if (!shot) return null;
  return markup`<dt>Picture</dt>
    <dd>
      <img
        class="shot"
        src=${`data:image/png;base64,${shot.png.toString('base64')}`}
        alt=${screenshotAlt(shot.rule, shot.selector)}
        width=${shot.width}
        height=${shot.height}
      />
    </dd>`;
}

function issueCard(item: ReportItem, l: ReportLayout): Html {
  const impact = item.impact ?? 'unknown';
  const html = htmlSnippet(item.html, 300);
  return markup`<li class=${`issue i-${impact} r${l.ruleOf(item)} p${l.pageOf(item)}`}>
    <h5>${item.help ?? item.rule}</h5>
    <dl class="facts">
      <dt>Rule</dt>
      <dd><code>${item.rule}</code> ${impactBadge(item.impact)}</dd>
      <dt>Page</dt>
      <dd>${item.page}</dd>
      ${item.source ? markup`<dt>Source</dt><dd><code>${item.source}</code></dd>` : null}
      ${item.selector ? markup`<dt>Selector</dt><dd><code>${item.selector}</code></dd>` : null}
      ${html ? markup`<dt>Element</dt><dd><code>${html}</code></dd>` : null}
      ${picture(item)}
      ${fixFacts(item)}
      ${item.wcag.length > 0 ? markup`<dt>WCAG</dt><dd>${item.wcag.join(', ')}</dd>` : null}
      ${item.tags.length > 0 ? markup`<dt>Tags</dt><dd>${item.tags.join(', ')}</dd>` : null}
      ${item.reason ? markup`<dt>Reason</dt><dd>${item.reason}</dd>` : null}
    </dl>
  </li>`;
}

function statusSection(s: StatusSection, l: ReportLayout, decision: ReportDecision): Html {
  const title = statusTitle(s.status, decision);
  const note =
    s.status === 'ignored' && decision.leftAside === 'waived'
      ? 'Covered by the site’s waivers; counted apart.'
      : STATUS_NOTE[s.status];
  return markup`<section class="status" id=${s.id} aria-labelledby=${`${s.id}-h`}>
    <h3 id=${`${s.id}-h`}>${title} (${s.count})</h3>
    <p class="muted">${note}</p>
    ${s.groups.map(
      // Not a landmark of its own: "critical, 1 issue" would name several.
      (g) => markup`<div class="group" id=${g.id}>
        <h4>${impactBadge(g.impact)} ${plural(g.items.length, 'issue')}</h4>
        <ol class="issues">
          ${g.items.map((item) => issueCard(item, l))}
        </ol>
      </div>`,
    )}
  </section>`;
}

export function issuesSection(l: ReportLayout, decision: ReportDecision): Html {
  return markup`<section aria-labelledby="issues-h">
    <h2 id="issues-h">Issues</h2>
    ${
      l.sections.length === 0
        ? markup`<p>No violation was found.</p>`
        : markup`${filters(l)}
          <p class="no-match" role="status">No issue matches the filters.</p>
          ${l.sections.map((s) => statusSection(s, l, decision))}`
    }
  </section>`;
}
