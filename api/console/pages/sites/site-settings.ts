import type { Request } from 'express';
import { PatchSiteBody } from '../../../schemas/sites/sites.js';
import type { requireSite } from '../../../services/sites/pages.js';

type Site = Awaited<ReturnType<typeof requireSite>>;
import { markup, type Html } from '../../../../core/text/html.js';
import { csrfField, errorSummary, type FieldProblem } from '../../views/parts.js';
import { field } from '../../guard.js';

// Every gate field is in the form: the API replaces the stored gate as a whole, so a field left out
// would be lost on each save.
const LIMITS = [
  ['max_critical', 'Most new critical issues allowed'],
  ['max_serious', 'Most new serious issues allowed'],
  ['max_moderate', 'Most new moderate issues allowed'],
  ['max_minor', 'Most new minor issues allowed'],
  ['max_total', 'Most new issues in total'],
] as const;
const LIMIT_NAMES: readonly string[] = LIMITS.map(([n]) => n);
const SWITCHES = [
  ['fail_on_critical', 'Fail on any new critical issue', true],
  ['fail_on_serious', 'Fail on any new serious issue', false],
  ['new_only', 'Count only new issues (not the debt the base branch already has)', true],
  ['include_incomplete', 'Count “needs review” results as issues', false],
] as const;
// Site fields (not gate fields) with their defaults.
const SITE_SWITCHES = [
  ['pr_comment', 'Write a comment on each pull request with the results', 'prComment'],
  ['merge_group_scans', 'Gate merge-queue commits (the workflow scans merge groups)', 'mergeGroupScans'],
] as const;
const ENGINE_UPGRADE = [
  ['warn', 'Warn: count them apart and fail nothing on them'],
  ['fail', 'Fail: judge them as new and fixed issues'],
] as const;

// Form field (the API's name), label, and the record's field.
const RETENTION = [
  ['base_branch_days', 'Days scans of the base branch are kept', 'baseBranchDays'],
  ['other_branch_days', 'Days scans of other branches are kept', 'otherBranchDays'],
  ['deploy_days', 'Days gate decisions are kept', 'deployDays'],
] as const;

export type SettingsValues = Record<string, string>;

/** One line for the site's facts: every period, and what is never removed. */
export function retentionSummary(r: Site['retention']): string {
  return (
    `base branch scans ${r.baseBranchDays} days, other scans ${r.otherBranchDays} days, ` +
    `gate decisions ${r.deployDays} days; reports, and the scans they or kept decisions use, are kept`
  );
}

export function settingsValues(site: Site): SettingsValues {
  const g = site.gate ?? {};
  const v: SettingsValues = {
    name: site.name ?? '',
    base_branch: site.baseBranch,
    repository: site.repository ?? '',
  };
  for (const [name, , dflt] of SWITCHES) v[name] = (g[name] ?? dflt) ? 'on' : '';
  for (const [name] of LIMITS) v[name] = g[name] === null || g[name] === undefined ? '' : String(g[name]);
  v.engine_upgrade = g.engine_upgrade ?? 'warn';
  for (const [name, , key] of SITE_SWITCHES) v[name] = site[key] ? 'on' : '';
  for (const [name, , field] of RETENTION) v[name] = String(site.retention[field]);
  return v;
}

/** The form's fields as a PATCH body, validated by the API's own schema; problems point at the fields. */
export function parseSettings(req: Request): {
  values: SettingsValues;
  patch?: PatchSiteBody;
  problems: FieldProblem[];
} {
  const values: SettingsValues = {};
  const texts = ['name', 'base_branch', 'repository', ...LIMIT_NAMES, ...RETENTION.map(([n]) => n)];
  for (const name of texts) values[name] = field(req, name).trim();
  for (const [name] of [...SWITCHES, ...SITE_SWITCHES]) values[name] = field(req, name) === 'on' ? 'on' : '';
  values.engine_upgrade = field(req, 'engine_upgrade');
  const limit = (s: string) => (s === '' ? null : /^\d{1,9}$/.test(s) ? Number(s) : Number.NaN);
  const body = {
    name: values.name || null,
    base_branch: values.base_branch || null,
    repository: values.repository || null,
    gate: {
      fail_on_critical: values.fail_on_critical === 'on',
      fail_on_serious: values.fail_on_serious === 'on',
      new_only: values.new_only === 'on',
      include_incomplete: values.include_incomplete === 'on',
      // Absent is the default; anything but the two policies is refused by the schema, beside the field.
      engine_upgrade: values.engine_upgrade || undefined,
      ...Object.fromEntries(LIMIT_NAMES.map((n) => [n, limit(values[n])])),
    },
    pr_comment: values.pr_comment === 'on',
    merge_group_scans: values.merge_group_scans === 'on',
    // Empty keeps the stored period (a partial retention patch).
    retention: Object.fromEntries(
      RETENTION.filter(([n]) => values[n] !== '').map(([n]) => [
        n,
        /^\d{1,9}$/.test(values[n]) ? Number(values[n]) : Number.NaN,
      ]),
    ),
  };
  const parsed = PatchSiteBody.safeParse(body);
  if (parsed.success) return { values, patch: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((i) => {
    const name = String(i.path[i.path.length - 1] ?? 'name');
    const label = name.replace(/_/g, ' ');
    const message = RETENTION.some(([n]) => n === name)
      ? 'must be a whole number of days from 1 to 36500'
      : i.code === 'invalid_type'
        ? 'must be a whole number of 0 or more, or empty'
        : i.message;
    return { field: name, message: `${label[0].toUpperCase()}${label.slice(1)} ${message}` };
  });
  return { values, problems };
}

type PatchSiteBody = ReturnType<typeof PatchSiteBody.parse>;

function text(
  name: string,
  label: string,
  values: SettingsValues,
  problems: FieldProblem[],
  hint?: string,
): Html {
  const problem = problems.find((p) => p.field === name);
  const described = [hint ? `${name}-hint` : '', problem ? `${name}-error` : ''].filter(Boolean).join(' ');
  return markup`<div class="field">
    <label for=${name}>${label}</label>
    ${hint ? markup`<span class="hint" id=${`${name}-hint`}>${hint}</span>` : null}
    ${problem ? markup`<span class="field-error" id=${`${name}-error`}>Error: ${problem.message}</span>` : null}
    <input
      id=${name}
      name=${name}
      value=${values[name]}
      aria-describedby=${described || undefined}
      aria-invalid=${problem ? 'true' : undefined}
      inputmode=${LIMIT_NAMES.includes(name) || RETENTION.some(([n]) => n === name) ? 'numeric' : undefined}
    />
  </div>`;
}

function checkbox(name: string, label: string, values: SettingsValues): Html {
  return markup`<div>
    <input type="checkbox" id=${name} name=${name} checked=${values[name] === 'on'} />
    <label for=${name} class="inline-label">${label}</label>
  </div>`;
}

function engineUpgrade(values: SettingsValues, problems: FieldProblem[]): Html {
  const problem = problems.find((p) => p.field === 'engine_upgrade');
  return markup`<div class="field">
    <label for="engine_upgrade">When the baseline was scanned by another engine version</label>
    ${problem ? markup`<span class="field-error" id="engine_upgrade-error">Error: ${problem.message}</span>` : null}
    <select
      id="engine_upgrade"
      name="engine_upgrade"
      aria-describedby=${problem ? 'engine_upgrade-error' : undefined}
      aria-invalid=${problem ? 'true' : undefined}
    >
      ${ENGINE_UPGRADE.map(
        ([value, label]) =>
          markup`<option value=${value} selected=${values.engine_upgrade === value}>${label}</option>`,
      )}
    </select>
  </div>`;
}

export function settingsForm(
  siteId: string,
  csrf: string,
  values: SettingsValues,
  problems: FieldProblem[],
): Html {
  return markup`${errorSummary(problems)}
    <form method="post" action=${
      // The settings sit at the foot of a long page: one that comes back with problems opens at them.
      `/sites/${siteId}/settings#settings`
    } class="stack">
      ${csrfField(csrf)} ${text('name', 'Display name', values, problems)}
      ${text('base_branch', 'Base branch', values, problems, 'Its scans are the baseline and the trend.')}
      ${text('repository', 'Repository', values, problems, 'owner/name on GitHub, for check runs.')}
      <fieldset>
        <legend>Gate defaults</legend>
        ${SWITCHES.map(([name, label]) => checkbox(name, label, values))}
        ${LIMITS.map(([name, label]) => text(name, label, values, problems, 'Empty: not checked.'))}
        ${engineUpgrade(values, problems)}
      </fieldset>
      <fieldset>
        <legend>Pull requests</legend>
        ${SITE_SWITCHES.map(([name, label]) => checkbox(name, label, values))}
      </fieldset>
      <fieldset>
        <legend>Retention</legend>
        <p class="hint">
          Older scans and gate decisions are removed a few at a time. Reports are kept, and so are the scans they
          or kept gate decisions use, and the newest scan of the base branch.
        </p>
        ${RETENTION.map(([name, label]) => text(name, label, values, problems))}
      </fieldset>
      <div><button type="submit">Save settings</button></div>
    </form>`;
}
