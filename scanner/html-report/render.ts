import type { ImpactKey } from '../../core/gate/settings.js';
import type { CategoryCounts } from '../../core/gate/thresholds.js';
import { markup, renderDocument, type Html } from '../../core/text/html.js';
import { plural } from '../../core/text/wording.js';
import { isHttpUrl } from '../../core/url-normalisation.js';
import { IMPACT_KEYS, layoutOf } from './groups.js';
import { impactBadge, issuesSection } from './issues.js';
import type { HtmlReport, ReportDecision, ReportItem, ReportPage } from './model.js';
import { reportCsp, reportCss } from './style.js';

/**
 * The local HTML report (`a11y-gate scan --html FILE`): one file that stands alone. Everything in it is
 * written through the kernel's one HTML path (core/text/html.ts), which escapes every value, so nothing a
 * scanned page says becomes markup; pictures are `data:` URIs, the stylesheet is inline and allowed by its
 * hash, and the policy lets nothing else load or run.
 */

const OUTCOME_LABEL: Record<ReportDecision['outcome'], string> = {
  passed: 'passed',
  failed: 'failed',
  recorded: 'recorded',
  none: 'not judged',
};

type Column = { key: keyof CategoryCounts; title: string };

function countsTable(d: ReportDecision, items: ReportItem[]): Html {
  const columns: Column[] = d.counts
    ? [
        { key: 'new', title: 'New' },
        { key: 'existing', title: 'Existing' },
        { key: 'fixed', title: 'Fixed' },
        { key: 'waived', title: d.leftAside === 'waived' ? 'Waived' : 'Ignored' },
      ]
    : [{ key: 'new', title: 'Found' }];
  // Without a gate every violation is counted as found (in the `new` column's place).
  const row = (impact: ImpactKey | null): Partial<CategoryCounts> => {
    if (d.counts) return impact ? (d.counts.byImpact[impact] ?? {}) : d.counts;
    return { new: items.filter((i) => impact === null || (i.impact ?? 'unknown') === impact).length };
  };
  const unknown = d.counts ? !!d.counts.byImpact.unknown : items.some((i) => i.impact === null);
  const impacts = IMPACT_KEYS.filter((k) => k !== 'unknown' || unknown);
  // A region of its own that takes the focus, so the keyboard can scroll it where the screen is narrow.
  return markup`<div class="table-wrap" role="region" aria-labelledby="counts-caption" tabindex="0">
    <table>
      <caption id="counts-caption">Issues by impact</caption>
      <thead>
        <tr>
          <th scope="col">Impact</th>
          ${columns.map((c) => markup`<th scope="col">${c.title}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${impacts.map(
          (impact) => markup`<tr>
            <th scope="row">${impactBadge(impact)}</th>
            ${columns.map((c) => markup`<td>${row(impact)[c.key] ?? 0}</td>`)}
          </tr>`,
        )}
        <tr>
          <th scope="row">All</th>
          ${columns.map((c) => markup`<td>${row(null)[c.key] ?? 0}</td>`)}
        </tr>
      </tbody>
    </table>
  </div>`;
}

function pageLine(p: ReportPage): Html {
  if (p.error) return markup`<li>${p.url}: <strong>not scanned</strong> (${p.error})</li>`;
  return markup`<li>${p.url}${p.title ? markup` (${p.title})` : null}: ${plural(p.violations, 'violation')}</li>`;
}

function pagesPart(r: HtmlReport): Html {
  const scanned = r.pages.filter((p) => !p.error).length;
  return markup`<h3>Pages</h3>
    <p>${scanned} of ${plural(r.pages.length, 'page')} scanned with ${r.engine}.</p>
    <ul class="pages">
      ${r.pages.map(pageLine)}
    </ul>`;
}

function summary(r: HtmlReport): Html {
  const d = r.decision;
  const details =
    d.detailsUrl && isHttpUrl(d.detailsUrl)
      ? markup`<p><a href=${d.detailsUrl}>The deploy event in the service</a></p>`
      : null;
  return markup`<section aria-labelledby="summary-h">
    <h2 id="summary-h">Summary</h2>
    <p class="verdict">
      <span class=${`badge ${d.outcome}`}>${OUTCOME_LABEL[d.outcome]}</span> <strong>${d.headline}</strong>
    </p>
    <p>${d.basis}</p>
    ${d.reasons.length > 0 ? markup`<ul>${d.reasons.map((m) => markup`<li>${m}</li>`)}</ul>` : null}
    ${d.notes.length > 0 ? markup`<ul>${d.notes.map((m) => markup`<li>${m}</li>`)}</ul>` : null}
    ${details}
    ${countsTable(d, r.items)}
    ${
      r.needsReview > 0
        ? markup`<p class="muted">${plural(r.needsReview, 'result')} of axe-core need a person’s review; the gate does not judge them and this report does not list them.</p>`
        : null
    }
    ${pagesPart(r)}
  </section>`;
}

/** The report as one HTML document. */
export function renderHtmlReport(r: HtmlReport): string {
  const layout = layoutOf(r.items);
  const css = reportCss(layout);
  const title = `Accessibility report: ${OUTCOME_LABEL[r.decision.outcome]}`;
  const generated = r.generatedAt.toISOString().replace(/\.\d+Z$/, 'Z');
  return renderDocument(markup`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta http-equiv="Content-Security-Policy" content=${reportCsp(css)} />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <title>${title} · a11y-gate</title>
      <style>${css}</style>
    </head>
    <body>
      <main>
        <h1>${title}</h1>
        <p class="muted">Written by a11y-gate on ${generated}.</p>
        ${summary(r)}
        ${issuesSection(layout, r.decision)}
      </main>
    </body>
  </html>`);
}
