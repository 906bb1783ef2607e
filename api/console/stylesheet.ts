/**
 * The console's one stylesheet, served as a file (the CSP allows no inline style). Colours are custom
 * properties with a light and a dark set; every text pair meets WCAG AA (4.5:1) and every line or border
 * that carries meaning meets 3:1 in both.
 */
export const STYLESHEET = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1b1f; --muted: #4a4a57; --surface: #f3f4f7; --border: #767685;
  --link: #0b57d0; --focus: #0b57d0; --focus-halo: #ffffff;
  --pass-bg: #146c2e; --fail-bg: #a4161a; --badge-fg: #ffffff;
  --critical: #a4161a; --serious: #b3470a; --moderate: #7a5a00; --minor: #3d5a80; --unknown: #5a5a66;
  --line-critical: #a4161a; --line-serious: #b3470a; --line-moderate: #7a5a00; --line-minor: #3d5a80;
  --grid: #8a8a99; --error: #a4161a; --notice-bg: #eef3fd;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #121218; --fg: #ececf1; --muted: #b9b9c6; --surface: #1e1e27; --border: #8c8c9c;
    --link: #8ab4f8; --focus: #8ab4f8; --focus-halo: #121218;
    --line-critical: #ff8a8a; --line-serious: #ffb366; --line-moderate: #e6c34d; --line-minor: #8ab4f8;
    --grid: #6e6e7e; --error: #ff9d9d; --notice-bg: #1c2740;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; }
body { margin: 0; background: var(--bg); color: var(--fg); overflow-wrap: break-word; }
a { color: var(--link); }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; box-shadow: 0 0 0 5px var(--focus-halo); }
main:focus { outline: none; }
.skip-link { position: absolute; left: 0.5rem; top: -4rem; padding: 0.5rem 1rem; background: var(--bg);
  color: var(--link); border: 2px solid var(--focus); z-index: 10; }
.skip-link:focus { top: 0.5rem; }
.site-header { border-bottom: 1px solid var(--border); background: var(--surface); }
.bar, main, .site-footer { max-width: 72rem; margin: 0 auto; padding: 0.75rem 1rem; }
.bar { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; justify-content: space-between; }
.brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--fg); }
.brand:hover { text-decoration: underline; }
.account { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; }
.who { color: var(--muted); }
.site-footer { color: var(--muted); border-top: 1px solid var(--border); margin-top: 2rem; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 0.75rem; }
h3 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
.crumbs ol { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem; padding: 0; margin: 0; }
.crumbs li + li::before { content: "/"; color: var(--muted); margin-right: 0.25rem; }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: var(--surface); border: 1px solid var(--border); padding: 0.5rem; overflow-x: auto;
  white-space: pre-wrap; word-break: break-all; margin: 0.25rem 0; }
.muted { color: var(--muted); }
.table-wrap { overflow-x: auto; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--border); vertical-align: top; }
th[scope="col"] { background: var(--surface); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 0 0.45rem; border-radius: 0.25rem; color: var(--badge-fg);
  font-size: 0.85rem; font-weight: 600; white-space: nowrap; }
.badge.critical { background: var(--critical); } .badge.serious { background: var(--serious); }
.badge.moderate { background: var(--moderate); } .badge.minor { background: var(--minor); }
.badge.unknown, .badge.waived { background: var(--unknown); }
.badge.passed { background: var(--pass-bg); } .badge.failed { background: var(--fail-bg); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0 0 1rem; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
img.shot { max-width: 100%; height: auto; border: 1px solid var(--border); background: var(--surface); }
.cards { list-style: none; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); }
.card { border: 1px solid var(--border); border-radius: 0.5rem; padding: 0.75rem 1rem; background: var(--bg); }
.card h2 { font-size: 1.15rem; margin: 0 0 0.5rem; }
.spark { display: block; width: 100%; max-width: 16rem; height: 3rem; }
.chart { display: block; width: 100%; max-width: 44rem; height: auto; }
.chart .grid { stroke: var(--grid); stroke-width: 1; }
.chart text { fill: var(--fg); font-size: 12px; }
.series { fill: none; stroke-width: 2.5; }
.series.critical { stroke: var(--line-critical); } .series.serious { stroke: var(--line-serious); stroke-dasharray: 8 4; }
.series.moderate { stroke: var(--line-moderate); stroke-dasharray: 2 3; } .series.minor { stroke: var(--line-minor); stroke-dasharray: 10 3 2 3; }
.series.total { stroke: var(--fg); }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; }
.key { display: inline-block; width: 1.5rem; height: 0; border-top: 3px solid var(--fg); vertical-align: middle; margin-right: 0.35rem; }
.key.critical { border-color: var(--line-critical); } .key.serious { border-color: var(--line-serious); border-top-style: dashed; }
.key.moderate { border-color: var(--line-moderate); border-top-style: dotted; } .key.minor { border-color: var(--line-minor); border-top-style: dashed; }
.marker { stroke: var(--bg); stroke-width: 1; } .marker.critical { fill: var(--line-critical); }
.marker.serious { fill: var(--line-serious); } .marker.moderate { fill: var(--line-moderate); } .marker.minor { fill: var(--line-minor); }
figure.history { margin: 1rem 0; } .history-chart { max-width: 40rem; } .history-chart .series.total { stroke-width: 3.5; }
.history-chart text { font-size: 12px; }
.key-line { vertical-align: middle; margin-right: 0.35rem; } .key-line .series { stroke-width: 2.5; }
.trend-sentence { font-weight: 600; }
form.stack { display: grid; gap: 0.75rem; max-width: 32rem; }
form.filters { display: flex; flex-wrap: wrap; gap: 0.75rem 1rem; align-items: end; }
form.inline { display: inline; margin: 0; }
label { font-weight: 600; display: block; }
label.inline-label { display: inline; font-weight: 400; margin-left: 0.35rem; }
fieldset { border: 1px solid var(--border); border-radius: 0.25rem; display: grid; gap: 0.75rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
.choice { display: flex; align-items: flex-start; gap: 0.5rem; }
.choice input { margin-top: 0.3rem; flex: none; }
.choice label { font-weight: 400; }
.field { display: grid; gap: 0.25rem; grid-template-columns: minmax(0, 1fr); max-width: 100%; }
/* A select grows to its longest option (a page URL): held to the screen's width instead. */
select { min-width: 0; text-overflow: ellipsis; }
.hint { color: var(--muted); font-size: 0.9rem; }
input, select, textarea, button { font: inherit; color: var(--fg); background: var(--bg);
  border: 1px solid var(--border); border-radius: 0.25rem; padding: 0.4rem 0.5rem; max-width: 100%; }
textarea { width: 100%; min-height: 4rem; }
button, .button { background: var(--link); color: var(--bg); border-color: var(--link); font-weight: 600;
  cursor: pointer; padding: 0.45rem 1rem; text-decoration: none; display: inline-block; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
.link-button { background: none; border: none; color: var(--link); text-decoration: underline; padding: 0; font-weight: 400; }
.error-summary { border: 3px solid var(--error); padding: 0.75rem 1rem; margin: 0 0 1rem; }
.error-summary h2 { margin-top: 0; font-size: 1.15rem; }
.field-error { color: var(--error); font-weight: 600; }
.notice { background: var(--notice-bg); border-left: 4px solid var(--link); padding: 0.75rem 1rem; margin: 0 0 1rem; }
.pager { display: flex; flex-wrap: wrap; gap: 1rem; margin: 1rem 0; }
.issues { list-style: none; padding: 0; }
.issue { border-top: 1px solid var(--border); padding: 0.5rem 0; }
ul.fix { margin: 0; padding-left: 1.25rem; }
details > summary { cursor: pointer; color: var(--link); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
@media (max-width: 40rem) {
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.5rem; }
  h1 { font-size: 1.4rem; }
  th, td { padding: 0.3rem 0.4rem; }
  /* The chart shrinks with the screen: its text grows in its units to stay readable. */
  .history-chart text { font-size: 17px; } .history-chart .mid-tick { display: none; }
}
@media print { .site-header form, .skip-link { display: none; } }
`;
