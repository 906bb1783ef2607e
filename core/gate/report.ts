/**
 * The deploy gate's report as markdown: a title, the summary (why it failed, issues by impact, thresholds,
 * baseline) and the new issues as a table, each cut to fit GitHub's limits. The GitHub App posts it as the
 * check run and the Action writes it as the job summary, so both tell the same story. Pure: no I/O, so the
 * Action's bundle may include it. It reads defensively (a missing count, numbers per impact): the Action may
 * render an event answered by another version of the service.
 */
import { IMPACTS, type Impact } from '../impact.js';
import type { GateResult } from './deploy-event.js';
import { engineChangeSentence } from './engine.js';
import { claimsLines } from '../claims/report.js';
import { markdownCode, markdownText } from '../text/github-markdown.js';
import { truncate } from '../text/truncation.js';

/** GitHub refuses `output.summary` / `output.text` (and job summaries) longer than 65,535 characters. */
export const GITHUB_TEXT_LIMIT = 65_535;

/** "3 new accessibility issues (1 critical)"; the reason instead when there was nothing to compare. */
export function gateReportTitle(result: GateResult): string {
  const newCount = totalNew(result);
  if (result.reasons.some((r) => r.code === 'no_scan')) return 'No accessibility scan for this commit';
  if (result.reasons.some((r) => r.code === 'baseline_recorded')) {
    const all = result.counts.new + result.counts.existing;
    return `Baseline recorded: ${all} accessibility ${all === 1 ? 'issue' : 'issues'} to start from`;
  }
  if (newCount === 0) {
    if (result.passed) return 'No new accessibility issues';
    // Failed without new issues: thresholds on every issue (`new_only: false`), so those are the figures.
    const all = result.counts.new + result.counts.existing;
    if (all === 0) return 'Accessibility gate failed';
    return `${all} accessibility ${all === 1 ? 'issue' : 'issues'}${severeNote(unwaivedByImpact(result))}, none new`;
  }
  const noun = newCount === 1 ? 'issue' : 'issues';
  return `${newCount} new accessibility ${noun}${severeNote(newByImpact(result))}`;
}

/** " (1 critical, 2 serious)", or nothing when there are neither. */
function severeNote(perImpact: Record<Impact, number>): string {
  const severe = (['critical', 'serious'] as const)
    .filter((i) => perImpact[i] > 0)
    .map((i) => `${perImpact[i]} ${i}`);
  return severe.length ? ` (${severe.join(', ')})` : '';
}

/** `detailsUrl` null: a gate judged without a service (the Action's), which has no deploy event to link. */
export function gateReportSummary(result: GateResult, detailsUrl: string | null): string {
  const lines: string[] = [];
  lines.push(result.passed ? '### ✅ Accessibility gate passed' : '### ❌ Accessibility gate failed');
  lines.push('');
  lines.push(
    `Site ${markdownCode(result.siteId)} · commit \`${result.sha.slice(0, 12)}\`` +
      (detailsUrl ? ` · deploy event [\`${result.id}\`](${detailsUrl})` : '') +
      (result.scan_id ? ` · scan \`${result.scan_id}\`` : ''),
  );
  if (result.reasons.length) {
    lines.push('', result.passed ? '**Why it passed**' : '**Why it failed**', '');
    for (const r of result.reasons) lines.push(`- ${markdownCode(r.code)}: ${markdownText(r.message)}`);
  }

  if (result.coverage) lines.push('', '#### Pages compared', '', ...coverageLines(result.coverage));
  lines.push(...claimsLines(result.claims));

  lines.push('', '#### Issues by impact', '');
  // Under an engine change a last column counts, per impact, the issues that differ because of it.
  const engine = result.engine_change ? ' Engine changed |' : '';
  lines.push(
    `| Impact | New | Existing | Fixed | Waived |${engine}`,
    `|---|---:|---:|---:|---:|${engine && '---:|'}`,
  );
  const rows = impactRows(result);
  for (const row of rows)
    lines.push(
      `| ${row.impact} | ${row.new} | ${row.existing} | ${row.fixed} | ${row.waived} |${engine && ` ${row.engine} |`}`,
    );
  const c = result.counts;
  const engineTotal = engine && ` **${c.engine_changed ?? 0}** |`;
  lines.push(
    `| **Total** | **${c.new}** | **${c.existing}** | **${c.fixed}** | **${c.waived}** |${engineTotal}`,
  );
  if (rows.some((r) => r.existing === '–')) {
    lines.push('', '_Per-impact figures are for new issues; totals cover every category._');
  }
  if (c.waived > 0)
    lines.push('', `${c.waived} waived ${c.waived === 1 ? 'issue is' : 'issues are'} not counted.`);
  if (result.engine_change) {
    // Apart from the table: these issues are neither new nor fixed unless the site judges them.
    lines.push('', '#### Engine upgrade', '', markdownText(engineChangeSentence(result.engine_change)));
  }

  lines.push('', '#### Thresholds', '');
  if (result.thresholds.length === 0) {
    lines.push('No thresholds were checked.');
  } else {
    lines.push('| Threshold | Limit | Actual | Result |', '|---|---:|---:|---|');
    for (const t of result.thresholds) {
      lines.push(
        `| ${markdownCode(t.name, { inTable: true })} | ${showValue(t.limit)} | ${showValue(t.actual)} | ${t.passed ? '✅ pass' : '❌ fail'} |`,
      );
    }
  }

  lines.push('', '#### Baseline', '', baselineSentence(result));
  return fitWithin(
    lines.join('\n') + '\n',
    GITHUB_TEXT_LIMIT,
    '\n\n_Summary cut to fit GitHub’s limit; the deploy event has everything._\n',
  );
}

export function totalNew(result: GateResult): number {
  return result.new_issues_total ?? result.counts.new;
}

function newByImpact(result: GateResult): Record<Impact, number> {
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  const by = result.counts.by_impact;
  if (by) {
    for (const impact of IMPACTS) {
      const v = by[impact];
      counts[impact] = typeof v === 'number' ? v : (v?.new ?? 0);
    }
    return counts;
  }
  for (const issue of result.new_issues) if (issue.impact) counts[issue.impact]++;
  return counts;
}

/** New plus existing issues per impact (what thresholds count when `new_only` is false). */
function unwaivedByImpact(result: GateResult): Record<Impact, number> {
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const impact of IMPACTS) {
    const v = result.counts.by_impact?.[impact];
    counts[impact] = typeof v === 'object' && v ? (v.new ?? 0) + (v.existing ?? 0) : (v ?? 0);
  }
  return counts;
}

interface ImpactRow {
  impact: string;
  new: number | string;
  existing: number | string;
  fixed: number | string;
  waived: number | string;
  engine: number | string;
}

function impactRows(result: GateResult): ImpactRow[] {
  const by = result.counts.by_impact ?? {};
  const keys = [...IMPACTS, ...(by.unknown !== undefined ? (['unknown'] as const) : [])];
  return keys.map((impact) => {
    const v = by[impact];
    if (typeof v === 'object' && v) {
      return {
        impact,
        new: v.new ?? 0,
        existing: v.existing ?? 0,
        fixed: v.fixed ?? 0,
        waived: v.waived ?? 0,
        engine: 'engine_changed' in v ? (v.engine_changed ?? 0) : '–',
      };
    }
    const n = typeof v === 'number' ? v : impact === 'unknown' ? 0 : newByImpact(result)[impact];
    return { impact, new: n, existing: '–', fixed: '–', waived: '–', engine: '–' };
  });
}

const STRATEGY_EXPLANATIONS: Record<string, string> = {
  baseline_sha: 'the scan of the `baseline_sha` named in the request',
  requested: 'the scan of the `baseline_sha` named in the request',
  base_branch: 'the latest scan on the site’s base branch before this commit’s scan',
  none: 'none: no earlier scan on the base branch, so every issue counts as new',
};

/** How many of a partial scan's pages the summary lists (the deploy event lists up to 100). */
const SUMMARY_PAGES = 20;

/** A partial scan's pages compared: the sentence, then the pages (a page's URL is the scan's text). */
export function coverageLines(coverage: NonNullable<GateResult['coverage']>): string[] {
  const shown = coverage.pages.slice(0, SUMMARY_PAGES);
  const more = coverage.pages_compared - shown.length;
  return [
    markdownText(coverage.message),
    '',
    ...shown.map((url) => `- ${markdownCode(truncate(url, 200))}`),
    ...(more > 0 ? [`- …and ${more} more in the deploy event`] : []),
  ];
}

function baselineSentence(result: GateResult): string {
  const b = result.baseline;
  if (!b && result.reasons.some((r) => r.code === 'no_scan')) {
    return 'No scan of this commit, so nothing was compared.';
  }
  // No scan of the base branch: the gate's reason says so and what to do (baseline.ts, noBaselineText).
  if (b?.reason && !b.scan_id && b.strategy === 'none') return markdownText(b.reason);
  if (b?.reason) {
    // A base-branch baseline that is no scan of the service (the Action's baseline file or a run's
    // artifact, judged without a service) is told by its reason alone.
    if (!b.scan_id && b.strategy === 'base_branch') return markdownText(b.reason);
    const compared = b.scan_id
      ? `Compared with scan \`${b.scan_id}\`${b.sha ? ` of commit \`${b.sha.slice(0, 12)}\`` : ''}`
      : 'No baseline';
    return `${compared} (strategy ${markdownCode(b.strategy)}): ${markdownText(b.reason)}`;
  }
  if (!b || !b.scan_id) {
    const why = b?.strategy && b.strategy !== 'none' ? ` (strategy ${markdownCode(b.strategy)})` : '';
    return `No baseline${why}: every issue counts as new.`;
  }
  const why = STRATEGY_EXPLANATIONS[b.strategy] ?? `strategy ${markdownCode(b.strategy)}`;
  return `Compared with scan \`${b.scan_id}\`${b.sha ? ` of commit \`${b.sha.slice(0, 12)}\`` : ''}: ${why}.`;
}

function showValue(v: number | boolean | null): string {
  if (v === null) return '–';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

// GitHub counts a body's characters (code points); UTF-16 code units and UTF-8 bytes never count fewer, and
// bytes count the most, so whatever fits in bytes fits for GitHub however it counts.
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** How many of `rows` (each on its own line) fit in `budget` bytes, from the first on. */
export function rowsWithin(rows: readonly string[], budget: number): number {
  let used = 0;
  let shown = 0;
  for (const row of rows) {
    const size = byteLength(row) + 1;
    if (used + size > budget) break;
    used += size;
    shown++;
  }
  return shown;
}

function fitWithin(text: string, limit: number, note: string): string {
  if (byteLength(text) <= limit) return text;
  let cut = text.slice(0, limit - byteLength(note));
  while (byteLength(cut) + byteLength(note) > limit) cut = cut.slice(0, cut.length - 100);
  return cut.slice(0, cut.lastIndexOf('\n') + 1) + note;
}
