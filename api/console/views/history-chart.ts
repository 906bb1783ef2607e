import { INTERVALS, type HistoryPoint } from '../../domain/history/series.js';
import { markup, type Html } from '../../../core/text/html.js';
import { IMPACTS, type Impact } from '../../../core/impact.js';
import { dataTable, num } from './data-table.js';
import { readableCount } from './parts.js';

/**
 * A site's history as an SVG chart that does not lean on colour: each line has its own dash pattern
 * and marker shape and is named at its end with its last figure, the figure says the trend in a
 * sentence, and the same figures are in a table.
 */

/** The intervals a chart's form offers, as [value, name] pairs. */
export const INTERVAL_CHOICES: Array<[string, string]> = INTERVALS.map((i) => [
  i,
  { day: 'Day', week: 'Week', month: 'Month' }[i],
]);

// Small units, so that the chart's text stays readable when it shrinks to a 320 px screen.
const W = 480;
const H = 270;
const PAD = { left: 40, right: 140, top: 14, bottom: 34 };
/** Room between two end labels, in the chart's units (the narrow screen's larger text fits too). */
const LABEL_GAP = 20;
/** About this many markers per line, so a year of days stays readable. */
const MARKERS = 10;

type Series = Impact | 'total';
const SERIES: Series[] = ['total', ...IMPACTS];

const valueOf = (p: HistoryPoint, s: Series): number => (s === 'total' ? p.openTotal : p.open[s]);

/** A marker of its series' shape centred on (x, y); the total line is the thick solid one, without. */
function marker(s: Series, x: number, y: number): Html | null {
  const cls = `marker ${s}`;
  if (s === 'critical') return markup`<circle class=${cls} cx=${x} cy=${y} r="4" />`;
  if (s === 'serious') return markup`<rect class=${cls} x=${x - 3.5} y=${y - 3.5} width="7" height="7" />`;
  if (s === 'moderate')
    return markup`<path class=${cls} d=${`M${x},${y - 5} L${x + 5},${y + 4} L${x - 5},${y + 4} Z`} />`;
  if (s === 'minor')
    return markup`<path class=${cls} d=${`M${x},${y - 5} L${x + 5},${y} L${x},${y + 5} L${x - 5},${y} Z`} />`;
  return null;
}

const fmt = (n: number) => Number(n.toFixed(1));

/** The end labels' heights: at their line's last value, pushed apart so none overlaps another. */
function labelHeights(ends: Array<{ s: Series; y: number }>): Map<Series, number> {
  const sorted = [...ends].sort((a, b) => a.y - b.y);
  const ys = sorted.map((e) => e.y);
  for (let i = 1; i < ys.length; i++) ys[i] = Math.max(ys[i], ys[i - 1] + LABEL_GAP);
  const overflow = ys[ys.length - 1] - (H - PAD.bottom);
  if (overflow > 0) for (let i = ys.length - 1; i >= 0; i--) ys[i] = Math.max(PAD.top, ys[i] - overflow);
  for (let i = ys.length - 2; i >= 0; i--) ys[i] = Math.min(ys[i], ys[i + 1] - LABEL_GAP);
  return new Map(sorted.map((e, i) => [e.s, ys[i]]));
}

/** What the range's figures say, in words: the chart's description and the sentence under it. */
export function historySentence(points: readonly HistoryPoint[], days: number): string {
  if (points.length === 0) return 'No figures in this range.';
  const first = points[0].openTotal;
  const last = points[points.length - 1];
  const sum = (f: (p: HistoryPoint) => number) => points.reduce((a, p) => a + f(p), 0);
  const change =
    first === last.openTotal
      ? `Open issues stayed at ${first}`
      : `Open issues ${last.openTotal < first ? 'fell' : 'rose'} from ${first} to ${last.openTotal}`;
  const now = IMPACTS.map((i) => `${last.open[i]} ${i}`).join(', ');
  return (
    `${change} over the last ${days} days; ${readableCount(
      sum((p) => p.regressions),
      'regression',
    )}, ` +
    `${sum((p) => p.new)} new, ${sum((p) => p.fixed)} fixed. ` +
    `At the end: ${now}; ${last.overdue} overdue.`
  );
}

function legend(): Html {
  return markup`<ul class="legend" aria-hidden="true">
    ${SERIES.map(
      (s) =>
        markup`<li>
          <svg class="key-line" viewBox="0 0 36 12" width="36" height="12">
            <line class=${`series ${s}`} x1="2" x2="34" y1="6" y2="6" />
            ${marker(s, 18, 6)}
          </svg>
          ${s}
        </li>`,
    )}
  </ul>`;
}

function plot(points: readonly HistoryPoint[], title: string, sentence: string, id: string): Html {
  const max = Math.max(1, ...points.map((p) => p.openTotal));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = points.length > 1 ? plotW / (points.length - 1) : 0;
  const x = (i: number) => fmt(PAD.left + i * step);
  const y = (v: number) => fmt(PAD.top + plotH * (1 - v / max));
  const every = Math.max(1, Math.ceil(points.length / MARKERS));
  const marked = points.map((_, i) => i).filter((i) => i % every === 0 || i === points.length - 1);
  const lastIndex = points.length - 1;
  const ends = SERIES.map((s) => ({ s, y: y(valueOf(points[lastIndex], s)) }));
  const labels = labelHeights(ends);
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  const mid = Math.floor(lastIndex / 2);
  return markup`<svg
    class="chart history-chart"
    viewBox=${`0 0 ${W} ${H}`}
    role="img"
    aria-labelledby=${`${id}-t ${id}-d`}
  >
    <title id=${`${id}-t`}>${title}</title>
    <desc id=${`${id}-d`}>${sentence}</desc>
    ${ticks.map(
      (t) => markup`<line class="grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(t)} y2=${y(t)} />
        <text x=${PAD.left - 6} y=${y(t) + 5} text-anchor="end">${t}</text>`,
    )}
    <text x=${PAD.left} y=${H - 10}>${points[0].start}</text>
    ${mid > 0 && mid < lastIndex ? markup`<text class="mid-tick" x=${x(mid)} y=${H - 10} text-anchor="middle">${points[mid].start}</text>` : null}
    <text x=${W - PAD.right} y=${H - 10} text-anchor="end">${points[lastIndex].end}</text>
    ${SERIES.map(
      (s) => markup`<g>
        <polyline
          class=${`series ${s}`}
          points=${points.map((p, i) => `${x(i)},${y(valueOf(p, s))}`).join(' ')}
        />
        ${marked.map((i) => marker(s, x(i), y(valueOf(points[i], s))))}
        ${marker(s, W - PAD.right + 12, labels.get(s)!)}
        <text class="end-label" x=${W - PAD.right + 21} y=${labels.get(s)! + 5}>
          ${s} ${valueOf(points[lastIndex], s)}
        </text>
      </g>`,
    )}
  </svg>`;
}

function intervalName(p: HistoryPoint): string {
  return p.start === p.end ? p.start : `${p.start} to ${p.end}`;
}

/** The same figures as the chart, one row per interval. */
function historyTable(points: readonly HistoryPoint[], caption: string): Html {
  const unknown = points.some((p) => p.open.unknown > 0);
  return dataTable(
    caption,
    [
      'Interval',
      ...IMPACTS.map((i) => num(i)),
      ...(unknown ? [num('unknown')] : []),
      num('Open'),
      num('New'),
      num('Fixed'),
      num('Regressions'),
      num('Overdue'),
    ],
    points.map((p) => [
      intervalName(p),
      ...IMPACTS.map((i) => p.open[i]),
      ...(unknown ? [p.open.unknown] : []),
      p.openTotal,
      p.new,
      p.fixed,
      p.regressions,
      p.overdue,
    ]),
    { region: 'Figures of the chart' },
  );
}

/**
 * The chart in a figure with its caption and its sentence, and the table of the same figures in a
 * disclosure under it.
 */
export function historyChart(
  points: readonly HistoryPoint[],
  o: { caption: string; days: number; id: string },
): Html {
  const sentence = historySentence(points, o.days);
  if (points.length === 0) return markup`<p>${sentence}</p>`;
  return markup`<figure class="history">
      <figcaption id=${`${o.id}-caption`}>${o.caption}</figcaption>
      ${plot(points, o.caption, sentence, o.id)}
      ${legend()}
      <p class="trend-sentence">${sentence}</p>
    </figure>
    <details class="figures">
      <summary>The chart’s figures as a table (${readableCount(points.length, 'row')})</summary>
      ${historyTable(points, o.caption)}
    </details>`;
}
