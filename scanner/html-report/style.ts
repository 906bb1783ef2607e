import { createHash } from 'node:crypto';
import type { ReportLayout } from './groups.js';

/**
 * The report's one stylesheet, inline (the file stands alone) and allowed by its hash in the report's
 * Content-Security-Policy. Colours are the console's: a light and a dark set, every text pair at least
 * 4.5:1. The stylesheet holds no text of the scan (filters name rules and pages by number), and none of
 * `"`, `&` or `<`, which the renderer would escape inside `<style>` and so change what the hash covers.
 *
 * The filters work without a script: checkboxes and selects, read by `:has()`. An issue is hidden when
 * its impact is unchecked or another rule or page is chosen; a status section or impact group is shown
 * only while some issue of it matches every filter, and "no issue matches" only while none does.
 */
const BASE = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1b1f; --muted: #4a4a57; --surface: #f3f4f7; --border: #767685;
  --link: #0b57d0; --focus: #0b57d0; --badge-fg: #ffffff;
  --pass-bg: #146c2e; --fail-bg: #a4161a; --none-bg: #4a4a57;
  --critical: #a4161a; --serious: #b3470a; --moderate: #7a5a00; --minor: #3d5a80; --unknown: #5a5a66;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121218; --fg: #ececf1; --muted: #b9b9c6; --surface: #1e1e27; --border: #8c8c9c;
    --link: #8ab4f8; --focus: #8ab4f8;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; background: var(--bg); color: var(--fg); overflow-wrap: anywhere; }
main { max-width: 72rem; margin: 0 auto; padding: 0.75rem 1rem 2rem; }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0; }
h2 { font-size: 1.35rem; margin: 2rem 0 0.75rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--border); }
h3 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
h4 { font-size: 1.05rem; margin: 1rem 0 0.5rem; }
h5 { font-size: 1rem; margin: 0 0 0.5rem; }
code { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: 0.9em; }
.muted { color: var(--muted); }
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 0.25rem; color: var(--badge-fg);
  background: var(--unknown); font-size: 0.85rem; font-weight: 600; white-space: nowrap; }
.badge.critical { background: var(--critical); } .badge.serious { background: var(--serious); }
.badge.moderate { background: var(--moderate); } .badge.minor { background: var(--minor); }
.badge.passed, .badge.recorded { background: var(--pass-bg); } .badge.failed { background: var(--fail-bg); }
.badge.none { background: var(--none-bg); }
.verdict { font-size: 1.1rem; }
.table-wrap { overflow-x: auto; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid var(--border); overflow-wrap: normal; }
th[scope=col] { background: var(--surface); }
td { text-align: right; font-variant-numeric: tabular-nums; }
ul.pages { padding-left: 1.25rem; }
ol.issues { list-style: none; padding: 0; margin: 0; display: grid; gap: 0.75rem; }
.issue { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; }
dl.facts { display: grid; grid-template-columns: 7rem minmax(0, 1fr); gap: 0.25rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; min-width: 0; }
dl.facts ul, dl.facts p { margin: 0 0 0.25rem; }
dl.facts ul { padding-left: 1.25rem; }
img.shot { display: block; max-width: 100%; height: auto; border: 1px solid var(--border); }
.filters { display: none; margin: 0 0 1rem; padding: 0.75rem 1rem; border: 1px solid var(--border);
  border-radius: 0.5rem; background: var(--surface); }
.filters h3 { margin-top: 0; }
.filters fieldset { border: 0; margin: 0 0 0.75rem; padding: 0; }
.filters legend { font-weight: 600; padding: 0; }
.filters .choices { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; }
.filters .field { display: flex; flex-wrap: wrap; gap: 0.25rem 0.5rem; align-items: center; margin: 0 0 0.5rem; }
.filters .field label { font-weight: 600; }
.filters select { font: inherit; max-width: 100%; }
.no-match { display: none; font-weight: 600; }
@media (max-width: 30rem) {
  main { padding: 0.5rem 0.5rem 1.5rem; }
  .issue { padding: 0.5rem 0.75rem; }
  dl.facts { display: block; }
  dl.facts dd { margin: 0 0 0.5rem; }
  th, td { padding: 0.25rem 0.2rem; font-size: 0.8125rem; }
  th .badge { padding: 0 0.2rem; font-size: inherit; }
}
`;

/** The filters' rules for this report's rules, pages and issues (only numbers of the layout go in). */
function filterRules(l: ReportLayout): string[] {
  const out = [
    '.filters { display: block; }',
    '.status, .group { display: none; }',
    '.no-match { display: block; }',
  ];
  for (const impact of l.impacts)
    out.push(`body:has(#f-impact-${impact}:not(:checked)) .issue.i-${impact} { display: none; }`);
  l.rules.forEach((_, n) =>
    out.push(`body:has(#f-rule option.r${n}:checked) .issue:not(.r${n}) { display: none; }`),
  );
  l.pages.forEach((_, n) =>
    out.push(`body:has(#f-page option.p${n}:checked) .issue:not(.p${n}) { display: none; }`),
  );
  const seen = new Set<string>();
  for (const section of l.sections) {
    for (const group of section.groups) {
      for (const item of group.items) {
        const r = l.ruleOf(item);
        const p = l.pageOf(item);
        const key = `${group.id} ${r} ${p}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const when =
          `body:has(#f-impact-${group.impact}:checked):has(#f-rule :is(.all, .r${r}):checked)` +
          `:has(#f-page :is(.all, .p${p}):checked)`;
        out.push(`${when} :is(#${group.id}, #${section.id}) { display: block; }`);
        out.push(`${when} .no-match { display: none; }`);
      }
    }
  }
  return out;
}

/** The whole stylesheet; where `:has()` is not supported the filters stay hidden and every issue shows. */
export function reportCss(layout: ReportLayout): string {
  return `${BASE}@supports selector(:has(*)) {\n${filterRules(layout).join('\n')}\n}\n`;
}

/** Nothing may load or run but this stylesheet and the pictures inside the file. */
export function reportCsp(css: string): string {
  const hash = createHash('sha256').update(css, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    `style-src 'sha256-${hash}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
