import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { isHttpUrl } from '../../../core/url-normalisation.js';
import { branchName } from '../scans/fields.js';
import { pageOf, PageQuery, SiteId, Timestamp } from '../common.js';
import { GateSettings } from '../gate/settings.js';
import { ClaimPolicySchema } from '../gate/claims.js';
import { z } from '../zod.js';

export const SiteParam = z.object({ siteId: SiteId });

const Repository = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be `owner/name` of a GitHub repository')
  .openapi({ example: 'acme/shop-web' });

// What git accepts as a branch name, minus the rare corners: no spaces or control characters
// (PostgreSQL cannot even store U+0000), no "..", no leading "-".
const Branch = z
  .string()
  .min(1)
  .max(255)
  .refine(
    // eslint-disable-next-line no-control-regex -- git refuses control characters in ref names
    (b) => !/[\s\x00-\x1f\x7f~^:?*[\\]|\.\.|^-|\/$|\.lock$|@\{/.test(b),
    'must be a valid git branch name',
  )
  .transform(branchName)
  .openapi({ example: 'main', description: 'A branch name; `refs/heads/` is dropped.' });

const Days = (what: string, fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(36500)
    .openapi({ example: fallback, description: `${what}, in days (default ${fallback}).` });

/** How long a site's scans and deploy events are kept; VPAT reports are always kept. */
export const Retention = z
  .object({
    base_branch_days: Days('Scans on the base branch are kept this long', 400),
    other_branch_days: Days('Scans on any other branch (or none) are kept this long', 30),
    deploy_days: Days('Deploy events are kept this long', 400),
  })
  .openapi('Retention', {
    description:
      'The retention sweep removes older scans and deploy events, a few at a time. A scan is kept, whatever ' +
      'its age, while a kept deploy event uses it as head or baseline, while a VPAT report uses it as ' +
      "evidence, and when it is the newest scan of the base branch (the next deploy's baseline).",
  });

export const RETENTION_DEFAULTS = { base_branch_days: 400, other_branch_days: 30, deploy_days: 400 };

export const Site = z
  .object({
    siteId: z.string(),
    name: z.string().nullable(),
    url: z.string().nullable(),
    repository: z.string().nullable(),
    base_branch: z.string(),
    gate: GateSettings.nullable().openapi({ description: "The site's default gate thresholds." }),
    retention: Retention,
    pr_comment: z.boolean().openapi({
      description: 'Whether the GitHub App writes one comment per pull request with this site’s results.',
    }),
    merge_group_scans: z.boolean().openapi({
      description:
        'Whether the workflow scans merge-group commits and gates them; when false the GitHub App answers a ' +
        'merge queue’s `checks_requested` with a neutral check run saying so.',
    }),
    claims: ClaimPolicySchema.openapi({
      description:
        'What a claimed fix that is not fixed does: `report` (default) shows it in the check run and the ' +
        'comment; `strict` also fails the gate on it.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .openapi('Site');

export const SiteList = pageOf(Site, 'SiteList');

export const SitesQuery = PageQuery;

export const PatchSiteBody = z
  .object({
    name: z.string().min(1).max(200).refine(isNulFree, NUL_MESSAGE).nullable().optional(),
    url: z
      .string()
      .max(2048)
      .refine(isHttpUrl, 'must be an absolute http(s) URL')
      .refine(isNulFree, NUL_MESSAGE)
      .nullable()
      .optional(),
    repository: Repository.nullable().optional(),
    base_branch: Branch.nullable()
      .optional()
      .openapi({ description: 'A branch name (`refs/heads/` is dropped); null resets it to `main`.' }),
    gate: GateSettings.nullable().optional().openapi({
      description:
        'Default thresholds of the deploy gate; replaces the stored ones as a whole (null removes them).',
    }),
    pr_comment: z.boolean().optional().openapi({
      description: 'Write the pull request comment (default true).',
    }),
    merge_group_scans: z.boolean().optional().openapi({
      description: 'The workflow gates merge-group commits (default false).',
    }),
    claims: ClaimPolicySchema.optional().openapi({
      description:
        '`strict` fails the gate on a claimed fix that is not fixed; `report` (default) shows it only.',
    }),
    retention: Retention.partial()
      .strict()
      .optional()
      .openapi({ description: 'Retention periods to change; absent periods stay as they are.' }),
  })
  .strict()
  .openapi('PatchSite', {
    description:
      'Absent fields stay as they are; null clears a field. Unknown fields are rejected, so a typo cannot pass silently.',
  });
