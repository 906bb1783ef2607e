import type { TrendPoint } from '../../schemas/sites/trend.js';
import { markup, type Html } from '../../../core/text/html.js';
import { dataTable, num } from './data-table.js';
import { shortSha, when } from './parts.js';
import { IMPACTS } from '../../../core/impact.js';

const W = 640;
const H = 240;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

type Series = (typeof IMPACTS)[number] | 'total';
const SERIES: Series[] = ['total', ...IMPACTS];

function valueOf(p: TrendPoint, s: Series): number {
  return s === 'total' ? p.issues : p.by_impact[s];
}

function coordinates(points: TrendPoint[], s: Series, max: number, w: number, h: number, pad = PAD): string {
  const step = points.length > 1 ? (w - pad.left - pad.right) / (points.length - 1) : 0;
  return points
    .map((p, i) => {
      const x = pad.left + i * step;
      const y = pad.top + (h - pad.top - pad.bottom) * (1 - valueOf(p, s) / (max || 1));
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/** One sentence per series: where it started and where it is now (the chart's text alternative). */
export function trendSentence(points: TrendPoint[]): string {
  if (points.length === 0) return 'No scans on the base branch yet.';
  const first = points[0];
  const last = points[points.length - 1];
  if (points.length === 1) return `One scan so far: ${last.issues} issues.`;
  const parts = SERIES.map((s) => `${s} ${valueOf(first, s)} → ${valueOf(last, s)}`);
  return `Over ${points.length} scans from ${first.created_at.slice(0, 10)} to ${last.created_at.slice(0, 10)}: ${parts.join(', ')}.`;
}

function legend(): Html {
  return markup`<ul class="legend" aria-hidden="true">
    ${SERIES.map((s) => markup`<li><span class=${`key ${s === 'total' ? '' : s}`}></span>${s}</li>`)}
  </ul>`;
}

function trendTable(points: TrendPoint[], caption: string): Html {
  return dataTable(
    caption,
    ['Scan', 'Commit', ...IMPACTS.map((i) => num(i)), num('Total')],
    points.map((p) => [
      markup`<a href=${`/scans/${p.scan_id}`}>${when(p.created_at)}</a>`,
      shortSha(p.sha),
      ...IMPACTS.map((i) => p.by_impact[i]),
      p.issues,
    ]),
  );
}

/** The trend as an SVG chart (with its text alternative) and the same figures as a table beside it. */
export function trendChart(points: TrendPoint[], baseBranch: string, id: string): Html {
  const title = `Issues by impact over the last ${points.length} scans of ${baseBranch}`;
  if (points.length < 2) {
    return markup`<p>${trendSentence(points)}</p>
      ${points.length ? trendTable(points, title) : null}`;
  }
  const max = Math.max(...points.map((p) => p.issues));
  const ticks = [0, Math.round(max / 2), max];
  const plotH = H - PAD.top - PAD.bottom;
  return markup`<figure>
      <svg class="chart" viewBox=${`0 0 ${W} ${H}`} role="img" aria-labelledby=${`${id}-t ${id}-d`}>
        <title id=${`${id}-t`}>${title}</title>
        <desc id=${`${id}-d`}>${trendSentence(points)}</desc>
        ${ticks.map((t) => {
          const y = PAD.top + plotH * (1 - t / (max || 1));
          return markup`<line class="grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y} y2=${y} />
            <text x=${PAD.left - 6} y=${y + 4} text-anchor="end">${t}</text>`;
        })}
        <text x=${PAD.left} y=${H - 8}>${points[0].created_at.slice(0, 10)}</text>
        <text x=${W - PAD.right} y=${H - 8} text-anchor="end">
          ${points[points.length - 1].created_at.slice(0, 10)}
        </text>
        ${SERIES.map((s) => markup`<polyline class=${`series ${s}`} points=${coordinates(points, s, max, W, H)} />`)}
      </svg>
      <figcaption>${legend()}</figcaption>
    </figure>
    ${trendTable(points, title)}`;
}

/** A small total-issues line for the sites overview; its label says the same in words. */
export function sparkline(points: TrendPoint[], label: string): Html | null {
  if (points.length < 2) return null;
  const max = Math.max(...points.map((p) => p.issues));
  const pad = { left: 2, right: 2, top: 4, bottom: 4 };
  return markup`<svg
    class="spark"
    viewBox="0 0 160 48"
    role="img"
    aria-label=${`${label}: ${trendSentence(points)}`}
  >
    <polyline class="series total" points=${coordinates(points, 'total', max, 160, 48, pad)} />
  </svg>`;
}
