import { CHECK_RUN_STATUSES } from '../../../core/github/check-run.js';
import { IMPACTS } from '../../../core/impact.js';
import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { Sha, SiteId, Timestamp } from '../common.js';
import { DeployCountsSchema } from './counts.js';
import { GateSettings } from './settings.js';
import { ClaimsInput, DeployClaimsSchema } from './claims.js';
import { PageCoverageSchema } from './coverage.js';
import { ServedFolderSchema } from './served-folder.js';
import { IssueSourceOut } from '../scans/output.js';
import { z, type OutputIs } from '../zod.js';
import type * as domain from '../../../core/gate/deploy-event.js';
import type * as settings from '../../../core/gate/settings.js';
import type * as engine from '../../../core/gate/engine.js';
import { ENGINE_UPGRADE_POLICIES } from '../../../core/gate/engine.js';
import type * as thresholds from '../../../core/gate/thresholds.js';

export const Repository = z
  .string()
  .max(200)
  // The same rule as the site's `repository` setting.
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be `owner/name` of a GitHub repository')
  .openapi({ example: 'acme/shop-web' });

export const DeployTriggerBody = GateSettings.extend({
  siteId: SiteId,
  sha: Sha.openapi({ description: 'The commit to judge: its latest scan is the head scan.' }),
  baseline_sha: Sha.optional().openapi({
    description:
      'Compare with the latest scan of this commit instead of the base branch. If that commit has no scan, ' +
      'there is no baseline and every issue is new.',
  }),
  baseline_fallback: z
    .enum(['none', 'base_branch'])
    .optional()
    .openapi({
      description:
        'When `baseline_sha` has no scan: `none` (the default) compares with nothing, so every issue is new; ' +
        "`base_branch` compares with the latest scan on the site's base branch instead (a merge queue's base " +
        'commit is often not scanned).',
    }),
  repository: Repository.optional().openapi({
    description: "Where the GitHub App posts the check run; default: the site's `repository` setting.",
  }),
  pull_request: z
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .openapi({
      description:
        'The pull request this commit belongs to: the GitHub App writes its comment there. Without it the App ' +
        'asks GitHub for an open pull request of the commit.',
      example: 42,
    }),
  ref: z.string().min(1).max(255).refine(isNulFree, NUL_MESSAGE).optional().openapi({
    description: 'The git ref being deployed (recorded with the event).',
    example: 'refs/pull/42/merge',
  }),
  claims: ClaimsInput.optional(),
})
  .strict()
  .openapi('DeployTrigger', {
    description:
      "Thresholds left out fall back to the site's `gate` settings, then to the built-in defaults " +
      '(fail_on_critical true, fail_on_serious false, new_only true, include_incomplete false, no max_* limits). ' +
      'A `max_*` set to null here is not checked even when the site sets it. Unknown fields are refused.',
  });

export const ImpactName = z.enum(IMPACTS);

export const BaselineIssueRefSchema = z
  .object({
    fingerprint: z.string(),
    selector: z.string().nullable(),
    page_url: z.string(),
  })
  .openapi('BaselineIssueRef');

export const GateIssueSchema = z
  .object({
    rule: z.string(),
    impact: ImpactName.nullable(),
    kind: z.enum(['violation', 'incomplete']),
    message: z.string().nullable(),
    selector: z.string().nullable(),
    page_url: z.string(),
    viewport: z.string().optional().openapi({
      description: "The page's viewport as the scan named it (`390x844`, `iPhone 13`); absent: none named.",
    }),
    wcag: z.array(z.string()),
    help_url: z.string().nullable(),
    html: z.string().nullable().optional().openapi({
      description:
        "The element's markup, cut to 300 characters (absent in events recorded before it was listed).",
    }),
    source: IssueSourceOut.nullable(),
    fingerprint: z.string(),
    match: z.enum(['fingerprint', 'similar', 'none']).openapi({
      description:
        "How the issue was told apart from the baseline's: `fingerprint` (the same rule, page and normalised " +
        'selector), `similar` (paired with `baseline_issue` by its element: tag, snippet, identifying ' +
        'attributes, text, selector path and order; see `evidence`), `none` (no baseline issue is this element: new).',
    }),
    baseline_issue: BaselineIssueRefSchema.nullable().openapi({
      description: 'The baseline issue it was paired with (`fingerprint` and `similar`), else null.',
    }),
    similarity: z
      .number()
      .nullable()
      .openapi({ description: 'The similarity score (0 to 1) of a `similar` pair.' }),
    evidence: z.string().nullable().openapi({
      description: 'Why a `similar` pair is the same element.',
      example:
        'Same element (similarity 0.90: same tag, snippet, attributes, text); selector changed from `a` to `a[href$="cart.html"]`.',
    }),
    engine_change: z
      .literal(true)
      .optional()
      .openapi({
        description:
          'Present on an issue that differs from the baseline only because the baseline was made with another ' +
          'engine (see `engine_change` of the event).',
      }),
  })
  .openapi('GateIssue');

export const WaivedGateIssueSchema = GateIssueSchema.extend({
  waiver_id: z.string().openapi({ description: 'The waiver that matched it (the oldest, when several do).' }),
  status: z.enum(['new', 'existing']).openapi({ description: 'What the issue would have been unwaived.' }),
}).openapi('WaivedGateIssue');

export const ReasonCodeSchema = z.enum([
  'no_scan',
  'baseline_recorded',
  'critical_issues',
  'serious_issues',
  'max_critical_exceeded',
  'max_serious_exceeded',
  'max_moderate_exceeded',
  'max_minor_exceeded',
  'max_total_exceeded',
  'claims_not_fixed',
]);

export const AppliedGateSettingsSchema = z
  .object({
    fail_on_critical: z.boolean(),
    fail_on_serious: z.boolean(),
    max_critical: z.number().int().nullable(),
    max_serious: z.number().int().nullable(),
    max_moderate: z.number().int().nullable(),
    max_minor: z.number().int().nullable(),
    max_total: z.number().int().nullable(),
    new_only: z.boolean(),
    include_incomplete: z.boolean(),
    engine_upgrade: z.enum(ENGINE_UPGRADE_POLICIES),
  })
  .openapi('AppliedGateSettings', {
    description: 'The thresholds this decision applied, after the site defaults and built-in defaults.',
  });

const EngineOut = z.object({ name: z.string(), version: z.string().nullable() });

export const EngineChangeOut = z
  .object({
    head: EngineOut,
    baseline: EngineOut,
    engine_upgrade: z.enum(ENGINE_UPGRADE_POLICIES).openapi({
      description:
        '`warn`: the issues that differ are counted apart and fail nothing; `fail`: judged as usual.',
    }),
    appeared: z.number().int().openapi({ description: 'Head issues that no baseline issue is.' }),
    disappeared: z.number().int().openapi({ description: 'Baseline issues that no head issue is.' }),
  })
  .openapi('EngineChange');

export const CheckRunState = z
  .object({
    status: z.enum(CHECK_RUN_STATUSES).openapi({
      description:
        '`pending`: the GitHub App will post it; `completed`: posted; `failed`: GitHub refused it (see `error`); ' +
        '`skipped`: nothing to post (no repository, or the App is not configured — see `error`).',
    }),
    id: z.number().int().nullable(),
    url: z.string().nullable(),
    error: z.string().nullable().openapi({ description: 'Why the check run was skipped or failed.' }),
  })
  .openapi('CheckRunState');

export const DeployEventSchema = z
  .object({
    id: z.string().openapi({ example: 'dep_2fJ8kQ0aXm4Rt9Lp1ZcV' }),
    siteId: z.string(),
    sha: z.string(),
    ref: z.string().nullable(),
    repository: z.string().nullable(),
    status: z.enum(['passed', 'failed']),
    passed: z.boolean(),
    reasons: z
      .array(z.object({ code: ReasonCodeSchema, message: z.string() }))
      .openapi({ description: 'Why the gate failed (empty when it passed). Codes are stable.' }),
    scan_id: z.string().nullable().openapi({ description: 'The head scan; null when the commit has none.' }),
    baseline: z
      .object({
        scan_id: z.string().nullable(),
        sha: z.string().nullable(),
        strategy: z.enum(['baseline_sha', 'base_branch', 'none']),
        reason: z.string(),
      })
      .nullable()
      .openapi({ description: 'Which scan the head was compared with, and why; null without a head scan.' }),
    coverage: PageCoverageSchema.nullable().openapi({
      description:
        'The head scan is partial (`scope: partial`): the pages it compared, out of those and the ' +
        "baseline's other pages, whose issues count neither as fixed nor as existing. Null for a full scan.",
    }),
    served: ServedFolderSchema.nullable().openapi({
      description:
        'The head scan was of a built folder the CLI served (`--serve`): the check run names its pages by path ' +
        'with `--serve DIR`. Null otherwise.',
    }),
    settings: AppliedGateSettingsSchema,
    counts: DeployCountsSchema,
    thresholds: z
      .array(
        z.object({
          name: z.enum([
            'fail_on_critical',
            'fail_on_serious',
            'max_critical',
            'max_serious',
            'max_moderate',
            'max_minor',
            'max_total',
          ]),
          limit: z.number().int().openapi({ description: 'Most issues allowed (`fail_on_*` allow none).' }),
          actual: z.number().int(),
          passed: z.boolean(),
        }),
      )
      .openapi({ description: 'Every threshold that was checked (limits that are off are not listed).' }),
    new_issues: z
      .array(GateIssueSchema)
      .openapi({ description: 'New issues, most severe first, at most 100.' }),
    new_issues_total: z.number().int(),
    waived_issues: z.array(WaivedGateIssueSchema).openapi({
      description:
        'Waived issues, most severe first, at most 100 (the total is `counts.waived`). A waiver that covers a ' +
        'baseline issue covers the head issue matched to it.',
    }),
    similar_issues: z.array(GateIssueSchema).openapi({
      description:
        'Existing issues whose fingerprint changed (a renamed selector, a shifted sibling, regenerated class ' +
        'names) and that were paired with a baseline issue by similarity, each with its evidence; most severe ' +
        'first, at most 100.',
    }),
    similar_issues_total: z.number().int(),
    engine_change: EngineChangeOut.nullable().openapi({
      description:
        'The baseline was made with another engine than the head scan (and no scan on the base branch was ' +
        'made with the same one): both engines, the policy applied and how many issues differ; else null.',
    }),
    engine_changed_issues: z.array(GateIssueSchema).openapi({
      description:
        'The head issues that differ only because the engine changed, each `engine_change: true`; most ' +
        'severe first, at most 100. With `engine_upgrade: fail` they are also listed (and counted) as new.',
    }),
    claims: DeployClaimsSchema.nullable().openapi({
      description: 'The fixes the change claimed (trigger and head scan) and the answer to each; else null.',
    }),
    check_run: CheckRunState,
    created_at: Timestamp,
  })
  .openapi('DeployEvent');

export type DeployTriggerBody = z.infer<typeof DeployTriggerBody>;

// The domain's deploy event (api/domain/gate/deploy-event.ts) is what these schemas produce, exactly.
type _DomainDeployEvent = [
  OutputIs<typeof DeployEventSchema, domain.DeployEvent>,
  OutputIs<typeof GateIssueSchema, domain.GateIssue>,
  OutputIs<typeof WaivedGateIssueSchema, domain.WaivedGateIssue>,
  OutputIs<typeof BaselineIssueRefSchema, domain.BaselineIssueRef>,
  OutputIs<typeof AppliedGateSettingsSchema, settings.AppliedGateSettings>,
  OutputIs<typeof ReasonCodeSchema, thresholds.ReasonCode>,
  OutputIs<typeof EngineChangeOut, engine.EngineChange>,
];
