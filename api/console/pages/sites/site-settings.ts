import type { Request } from 'express';
import { PatchSiteBody } from '../../../schemas/sites/sites.js';
import type { requireSite } from '../../../services/sites/pages.js';

type Site = Awaited<ReturnType<typeof requireSite>>;
import { markup, type Html } from '../../html.js';
import { csrfField, errorSummary, type FieldProblem } from '../../views/parts.js';
import { field } from '../../guard.js';

const LIMITS = ['max_critical', 'max_serious', 'max_total'] as const;
const SWITCHES = [
  ['fail_on_critical', 'Fail on any new critical issue', true],
  ['fail_on_serious', 'Fail on any new serious issue', false],
  ['new_only', 'Count only new issues (not the debt the base branch already has)', true],
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
  for (const name of LIMITS) v[name] = g[name] === null || g[name] === undefined ? '' : String(g[name]);
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
  const texts = ['name', 'base_branch', 'repository', ...LIMITS, ...RETENTION.map(([n]) => n)];
  for (const name of texts) values[name] = field(req, name).trim();
  for (const [name] of SWITCHES) values[name] = field(req, name) === 'on' ? 'on' : '';
  const limit = (s: string) => (s === '' ? null : /^\d{1,9}$/.test(s) ? Number(s) : Number.NaN);
  const body = {
    name: values.name || null,
    base_branch: values.base_branch || null,
    repository: values.repository || null,
    gate: {
      fail_on_critical: values.fail_on_critical === 'on',
      fail_on_serious: values.fail_on_serious === 'on',
      new_only: values.new_only === 'on',
      ...Object.fromEntries(LIMITS.map((n) => [n, limit(values[n])])),
    },
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
      inputmode=${LIMITS.includes(name as never) || RETENTION.some(([n]) => n === name) ? 'numeric' : undefined}
    />
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
        ${SWITCHES.map(
          ([name, label]) =>
            markup`<div>
              <input type="checkbox" id=${name} name=${name} checked=${values[name] === 'on'} />
              <label for=${name} class="inline-label">${label}</label>
            </div>`,
        )}
        ${text('max_critical', 'Most new critical issues allowed', values, problems, 'Empty: not checked.')}
        ${text('max_serious', 'Most new serious issues allowed', values, problems, 'Empty: not checked.')}
        ${text('max_total', 'Most new issues in total', values, problems, 'Empty: not checked.')}
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
