/**
 * Turns what each suite returned into one comparable shape and checks it against the targets: ingest
 * at least 0.8 of its floor with the peak RSS growing by at most 3× the body of a 25 MB scan, gate and
 * VPAT within 2× of theirs, the mixed load without errors at 0.25 of the HTTP stack's ceiling with
 * `GET /api/v1/deploy/:id` under 50 ms at p99.
 */

export interface SuiteFigures {
  suite: string;
  kind: string;
  figures: Record<string, unknown>;
}

interface Target {
  field: string;
  test: (v: number) => boolean;
  text: string;
}

interface Spec {
  /** Normalised field → the names suites may use for it. */
  fields: Record<string, string[]>;
  target?: Target;
  /** Further targets of the same suite (the VPAT's PDF beside its JSON report). */
  more?: Target[];
}

const targetsOf = (spec: Spec | undefined): Target[] =>
  spec ? [spec.target, ...(spec.more ?? [])].filter((t): t is Target => t !== undefined) : [];

const SPECS: Record<string, Spec> = {
  ingest: {
    fields: {
      issues_per_s: ['issues_per_s', 'issuesPerSecond', 'issues_per_second'],
      floor_issues_per_s: ['floor_issues_per_s', 'floor_per_s', 'floor'],
      ratio_to_floor: ['ratio_to_floor', 'ratio', 'ratioToFloor'],
      peak_rss_mb: ['peak_rss_mb', 'peakRssMb', 'rss_mb'],
      rss_growth_to_body: ['rss_growth_to_body'],
      parts_pages: ['parts_pages'],
      parts_pages_per_s: ['parts_pages_per_s'],
    },
    target: { field: 'ratio_to_floor', test: (v) => v >= 0.8, text: '≥ 0.8 of floor' },
    more: [
      { field: 'rss_growth_to_body', test: (v) => v <= 3, text: '≤ 3× the body (25 MB scan)' },
      { field: 'parts_pages', test: (v) => v >= 100_000, text: '100,000 pages in parts' },
    ],
  },
  gate: {
    fields: {
      ms: ['ms', 'gate_ms', 'p50_ms', 'median_ms'],
      floor_ms: ['floor_ms', 'floorMs'],
      ratio_to_floor: ['ratio_to_floor', 'ratio', 'ratioToFloor'],
    },
    target: { field: 'ratio_to_floor', test: (v) => v <= 2, text: '≤ 2× floor' },
  },
  vpat: {
    fields: {
      ms: ['ms', 'vpat_ms', 'p50_ms', 'median_ms'],
      floor_ms: ['floor_ms', 'floorMs'],
      ratio_to_floor: ['ratio_to_floor', 'ratio', 'ratioToFloor'],
      pdf_ms: ['pdf_ms'],
      pdf_ratio_to_json: ['pdf_ratio_to_json'],
    },
    target: { field: 'ratio_to_floor', test: (v) => v <= 2, text: '≤ 2× floor' },
    more: [{ field: 'pdf_ratio_to_json', test: (v) => v < 3, text: '< 3× the JSON report' }],
  },
  assessment: {
    fields: {
      import_ms: ['import_ms'],
      report_ms: ['report_ms'],
      floor_ms: ['floor_ms'],
      import_ratio: ['import_ratio'],
      report_ratio: ['report_ratio'],
    },
    target: { field: 'import_ratio', test: (v) => v <= 2, text: '≤ 2× the report without an assessment' },
    more: [{ field: 'report_ratio', test: (v) => v <= 2, text: '≤ 2× the report without an assessment' }],
  },
  webhooks: {
    fields: {
      deliveries_per_s_1_instance: ['deliveries_per_s_1_instance'],
      deliveries_per_s_2_instances: ['deliveries_per_s_2_instances'],
      added_by_outbox_ms: ['added_by_outbox_ms'],
      delivery_defects: ['delivery_defects'],
    },
    // Not one of the issue's targets, but a lost event or a bad signature is a defect, not a figure.
    target: { field: 'delivery_defects', test: (v) => v === 0, text: 'all delivered, all signatures valid' },
  },
  scan: {
    fields: {
      a11y_gate_pages_per_min: ['a11y_gate_pages_per_min'],
      pa11y_ci_pages_per_min: ['pa11y_ci_pages_per_min'],
      axe_cli_pages_per_min: ['axe_cli_pages_per_min'],
      ratio_to_pa11y_ci: ['ratio_to_pa11y_ci'],
      ratio_to_axe_cli: ['ratio_to_axe_cli'],
      a11y_gate_peak_rss_mb: ['a11y_gate_peak_rss_mb'],
      locating_time_ratio: ['locating_time_ratio'],
      scan_ratio_to_floor: ['scan_ratio_to_floor'],
      scan_axe_floor_ratio_to_floor: ['scan_axe_floor_ratio_to_floor'],
      scan_ratio_to_axe_floor: ['scan_ratio_to_axe_floor'],
      scan_ratio_to_axe_floor_median_of_rounds: ['scan_ratio_to_axe_floor_median_of_rounds'],
      heavy_ratio_to_pa11y_ci: ['heavy_ratio_to_pa11y_ci'],
      heavy_ratio_to_axe_cli: ['heavy_ratio_to_axe_cli'],
      heavy_scan_ratio_to_floor: ['heavy_scan_ratio_to_floor'],
      heavy_scan_axe_floor_ratio_to_floor: ['heavy_scan_axe_floor_ratio_to_floor'],
      heavy_scan_ratio_to_axe_floor: ['heavy_scan_ratio_to_axe_floor'],
      heavy_scan_ratio_to_axe_floor_median_of_rounds: ['heavy_scan_ratio_to_axe_floor_median_of_rounds'],
      scan_targets_missed: ['scan_targets_missed'],
    },
    target: {
      field: 'scan_targets_missed',
      test: (v) => v === 0,
      text: 'both page sets: ≥ 3× pa11y-ci, faster than @axe-core/cli, findings equal to axe-core, ≥ 0.7 of the floor, ≥ 0.95 of the axe-core floor (median of the rounds’ own ratios); locating ≤ 1.1×',
    },
  },
  console: {
    fields: { worst_median_ms: ['worst_median_ms'] },
    target: { field: 'worst_median_ms', test: (v) => v < 50, text: '< 50 ms median per page' },
  },
  retention: {
    fields: {
      bytes_per_1000_scans: ['bytes_per_1000_scans'],
      size_growth_second_to_last_cycle: ['size_growth_second_to_last_cycle'],
    },
    target: {
      field: 'size_growth_second_to_last_cycle',
      test: (v) => v <= 1.1,
      text: 'flat across retention cycles (last ≤ 1.1× the second)',
    },
  },
  instances: {
    fields: {
      one_instance_req_per_s: ['one_instance_req_per_s'],
      two_instances_req_per_s: ['two_instances_req_per_s'],
      one_instance_pg_cores: ['one_instance_pg_cores'],
      instances_per_pg_core: ['instances_per_pg_core'],
      errors: ['errors'],
    },
    target: { field: 'errors', test: (v) => v === 0, text: 'zero errors' },
  },
  history: {
    fields: {
      read_median_ms: ['read_median_ms'],
      read_p95_ms: ['read_p95_ms'],
      org_30_p95_ms: ['org_30_p95_ms'],
      org_365_p95_ms: ['org_365_p95_ms'],
      aggregate_cost: ['aggregate_cost'],
      keep_median_ms: ['keep_median_ms'],
    },
    target: { field: 'read_p95_ms', test: (v) => v <= 300, text: "≤ 300 ms p95 (a site's year by day)" },
    more: [
      { field: 'org_30_p95_ms', test: (v) => v <= 300, text: '≤ 300 ms p95 (the org view, 30 days)' },
      { field: 'org_365_p95_ms', test: (v) => v <= 300, text: '≤ 300 ms p95 (the org view, 365 days)' },
      { field: 'aggregate_cost', test: (v) => v <= 0.1, text: '≤ 10 % of ingest time' },
    ],
  },
  load: {
    fields: {
      req_per_s: ['req_per_s'],
      errors: ['errors'],
      ceiling_req_per_s: ['ceiling_req_per_s'],
      ratio_to_ceiling: ['ratio_to_ceiling'],
      deploy_read_p99_ms: ['deploy_read_p99_ms'],
    },
    target: { field: 'errors', test: (v) => v === 0, text: 'zero errors' },
    more: [
      { field: 'ratio_to_ceiling', test: (v) => v >= 0.25, text: '≥ 0.25 of the ceiling' },
      { field: 'deploy_read_p99_ms', test: (v) => v < 50, text: '< 50 ms at p99' },
    ],
  },
};

/** The issue's keys (`ingest`, `gate`, `vpat`, `load`, and `webhooks`) for suites however they are named. */
export function keyFor(suite: string): string {
  const lower = suite.toLowerCase();
  return Object.keys(SPECS).find((k) => lower.includes(k)) ?? lower.replace(/[^a-z0-9]+/g, '_');
}

function pick(figures: Record<string, unknown>, names: string[]): unknown {
  for (const n of names) if (figures[n] !== undefined) return figures[n];
  return undefined;
}

export function summarize(all: SuiteFigures[]): {
  rows: Array<Record<string, string | number>>;
  json: Record<string, unknown>;
  missed: string[];
} {
  const rows: Array<Record<string, string | number>> = [];
  const missed: string[] = [];
  const json: Record<string, unknown> = {};
  const postgres: Record<string, unknown> = {};
  for (const { suite, kind, figures } of all) {
    const key = keyFor(suite);
    const spec = SPECS[key];
    const normalised: Record<string, unknown> = {};
    for (const [field, names] of Object.entries(spec?.fields ?? {})) {
      const v = pick(figures, names);
      if (v !== undefined) normalised[field] = v;
    }
    // Normalised fields first, then everything the suite reported.
    const entry = { ...normalised, ...figures };
    // SQLite (the default deployment) at the top level, as the issue's shape; PostgreSQL beside it.
    if (kind === 'sqlite') json[key] = entry;
    else postgres[key] = entry;

    for (const [field, value] of Object.entries(normalised)) {
      if (typeof value === 'object') continue;
      const target = targetsOf(spec).find((t) => t.field === field);
      const isTarget = target !== undefined;
      const ok = target && typeof value === 'number' ? target.test(value) : undefined;
      if (target && ok === false)
        missed.push(`${key} (${kind}) ${field} = ${shown(value)}, target ${target.text}`);
      rows.push({
        suite: key,
        db: kind,
        figure: field,
        value: typeof value === 'number' ? value : shown(value),
        target: isTarget ? target.text : '',
        verdict: ok === undefined ? '' : ok ? 'met' : 'MISSED',
      });
    }
    // A suite that does not apply to this database (the two-instance run on SQLite) says so.
    const skipped = typeof figures.skipped === 'string';
    for (const target of skipped ? [] : targetsOf(spec)) {
      if (normalised[target.field] !== undefined) continue;
      missed.push(`${key} (${kind}) did not report ${target.field}`);
      rows.push({
        suite: key,
        db: kind,
        figure: target.field,
        value: '—',
        target: target.text,
        verdict: 'MISSING',
      });
    }
  }
  if (Object.keys(postgres).length > 0) json.postgres = postgres;
  return { rows, json, missed };
}

/** A figure as the table prints it: figures are numbers, strings or booleans (objects are skipped). */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}
