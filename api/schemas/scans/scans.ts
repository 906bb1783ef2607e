import { ServedFolderSchema } from '../gate/served-folder.js';
import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { CRITERION_ID, MAX_CRITERIA_PER_ISSUE } from '../../../core/scans/wcag-criteria.js';
import { criteriaFromAxeTags } from '../../../core/scans/wcag-tags.js';
import { PageQuery, Sha, SiteId, ViewportName } from '../common.js';
import { ImpactSchema, IssueKindSchema } from './output.js';
import { SOURCE_METHODS } from '../../../core/scans/imported-issue.js';
import { z, type OutputFits } from '../zod.js';
import { branchName, Identifier, NullableString } from './fields.js';
import { Pa11yInputSchema, Pa11yIssue } from './pa11y.js';
import { MAX_PASSES_PER_PAGE } from '../../../core/claims/passes.js';
import { PassingElement } from './passes.js';
import { ClaimsInput } from '../gate/claims.js';
import { ScanGroup, shardPartFields } from './shards.js';
import { MAX_SHARDS } from '../../../core/scans/shards.js';
import { SCAN_SCOPES } from '../../../core/gate/coverage.js';
import type * as input from '../../domain/scans/input.js';

/**
 * Scan input and output. Unknown fields are ignored (engines add fields over time); wrong types are
 * rejected with a JSON pointer. Counts (pages, issues) are limited by configuration and answered with
 * 413 by the route, not here, so the limits can change without changing the schema.
 */

const Url = z.string().min(1).max(4096).refine(isNulFree, NUL_MESSAGE);

/** Integer columns are 32-bit on PostgreSQL: a larger number must be a 422, not a 500. */
const INT32_MAX = 2_147_483_647;

export const SourceLocation = z
  .object({
    path: Identifier(1024).openapi({ example: 'src/components/Header.tsx' }),
    line: z.number().int().min(1).max(INT32_MAX).nullable().optional(),
    column: z.number().int().min(1).max(INT32_MAX).nullable().optional(),
    method: z.enum(SOURCE_METHODS).nullable().optional().openapi({
      description:
        'How it was found: `attribute` (a dev-build attribute) or `static` (the page file itself).',
    }),
  })
  .openapi('SourceLocation', {
    description:
      'Where CI knows the issue comes from in the repository: a path relative to its root, 1-based line and column.',
  });

export const NativeIssue = z
  .object({
    rule: Identifier(200).openapi({ example: 'color-contrast' }),
    impact: ImpactSchema.nullable().optional(),
    kind: IssueKindSchema.default('violation'),
    message: z.string().max(16_384).nullable().optional(),
    selector: z.string().max(8192).nullable().optional(),
    html: z.string().nullable().optional().openapi({
      description:
        'The element markup; longer than the configured limit (64 KB) is truncated with a warning.',
    }),
    wcag: z
      .array(z.string().regex(CRITERION_ID, 'must be a WCAG criterion id such as "1.4.3"'))
      .max(MAX_CRITERIA_PER_ISSUE)
      .optional(),
    help_url: z.string().max(2048).nullable().optional(),
    source: SourceLocation.nullable().optional(),
  })
  .openapi('NativeIssue');

const AxeNode = z.object({
  // One entry per frame level; an entry is an array when the element sits in shadow DOM.
  target: z.array(z.union([z.string(), z.array(z.string())])).default([]),
  html: NullableString,
  impact: ImpactSchema.nullable().optional(),
  failureSummary: NullableString,
  source: SourceLocation.nullable().optional().openapi({
    description:
      "Not axe-core's own: the element's place in the repository, as a11y-gate's scanner adds it to each node.",
  }),
});

const AxeRuleResult = z
  .object({
    id: Identifier(200),
    impact: ImpactSchema.nullable().optional(),
    tags: z.array(z.string()).default([]),
    description: NullableString,
    help: NullableString,
    helpUrl: NullableString,
    nodes: z.array(AxeNode).default([]),
  })
  .refine((r) => criteriaFromAxeTags(r.tags).length <= MAX_CRITERIA_PER_ISSUE, {
    path: ['tags'],
    message: `may name at most ${MAX_CRITERIA_PER_ISSUE} WCAG criteria (wcagNNN tags)`,
  });

// passes and inapplicable only tell which rules ran: their nodes are not read.
const AxeRuleId = z.object({ id: Identifier(200) });

export const AxeResults = z
  .object({
    testEngine: z
      .object({
        name: z.string().max(100).refine(isNulFree, NUL_MESSAGE),
        version: z.string().max(100).refine(isNulFree, NUL_MESSAGE),
      })
      .partial()
      .optional(),
    // Stands in for a missing final_url, so it is stored.
    url: z.string().max(4096).refine(isNulFree, NUL_MESSAGE).optional(),
    violations: z.array(AxeRuleResult).default([]),
    incomplete: z.array(AxeRuleResult).default([]),
    passes: z.array(AxeRuleId).default([]),
    inapplicable: z.array(AxeRuleId).default([]),
  })
  .openapi('AxeResults', {
    description:
      'The object `axe.run()` resolves with, for this page. violations → issues of kind `violation`, ' +
      'incomplete → kind `incomplete`, one issue per node; passes and inapplicable tell which rules ran.',
  });

export const ScanPageInputSchema = z
  .object({
    url: Url.openapi({ description: 'Absolute, or relative to the scan `url`.', example: '/checkout' }),
    viewport: ViewportName.nullable()
      .optional()
      .openapi({
        description:
          'The viewport the page was scanned at (`390x844`, `iPhone 13`), part of its identity: one URL at two ' +
          'viewports is two pages, each judged against the baseline page of its URL and viewport. Absent: none.',
        example: '390x844',
      }),
    title: z.string().max(2000).nullable().optional(),
    final_url: Url.nullable().optional().openapi({ description: 'Where the page ended after redirects.' }),
    http_status: z.number().int().min(100).max(599).nullable().optional(),
    issues: z.array(NativeIssue).optional(),
    axe: AxeResults.optional(),
    pa11y: Pa11yInputSchema.optional(),
    rules_inapplicable: z
      .array(Identifier(200))
      .max(5000)
      .optional()
      .openapi({
        description:
          'A native or pa11y page: the rules that ran here and found nothing to test (axe-core’s `inapplicable`). ' +
          'An axe page lists its own; absent: not known.',
      }),
    passes: z
      .array(PassingElement)
      .max(MAX_PASSES_PER_PAGE)
      .optional()
      .openapi({
        description:
          'Passing elements of the rules whose fixes a change may claim (docs/scans.md, "Passing elements"). ' +
          'Without them a claimed fix can be answered `removed` or `not_fixed`, never `verified`.',
      }),
  })
  .superRefine((page, ctx) => {
    const forms = [page.issues, page.axe, page.pa11y].filter((f) => f !== undefined).length;
    if (forms > 1) {
      ctx.addIssue({ code: 'custom', message: 'give one of `issues`, `axe` or `pa11y`, not several' });
    }
  })
  .openapi('ScanPageInput', {
    description: 'One scanned page with its results in one of three forms: `issues`, `axe` or `pa11y`.',
  });

/** How far ahead of the server's clock a `scanned_at` may be. */
const SCANNED_AT_SKEW_MS = 5 * 60_000;

/** Everything of a scan but its pages (read before the pages, which are validated one by one). */
export const CreateScanHead = z.object({
  url: Url.refine(
    (u) => /^https?:\/\//i.test(u) && URL.canParse(u),
    'must be an absolute http(s) URL',
  ).openapi({
    example: 'https://shop.example.com/',
  }),
  siteId: SiteId.optional().openapi({ description: "Default: the url's host name." }),
  sha: Sha.nullable().optional(),
  branch: Identifier(255)
    .transform(branchName)
    .nullable()
    .optional()
    .openapi({ description: 'The branch name (`refs/heads/` is dropped).' }),
  engine: z
    .object({
      name: Identifier(100),
      version: z.string().max(100).refine(isNulFree, NUL_MESSAGE).nullable().optional(),
    })
    .nullable()
    .optional()
    .openapi({ description: "Default: the first axe result's `testEngine`." }),
  run_attempt: z.number().int().min(1).max(INT32_MAX).nullable().optional(),
  scanned_at: z.iso
    .datetime({ offset: true })
    // A CI runner's clock may run a little ahead of the server's.
    .refine((v) => Date.parse(v) <= Date.now() + SCANNED_AT_SKEW_MS, 'must not be in the future')
    .transform((v) => new Date(v).toISOString())
    .optional()
    .openapi({
      description:
        'When the pages were scanned, ISO 8601 with an offset (default: when the scan is stored). A past time ' +
        "imports history from another tool: a full scan of the base branch then takes its place in the site's " +
        'history at that time (docs/portfolio.md).',
    }),
  scope: z
    .enum(SCAN_SCOPES)
    .default('full')
    .openapi({
      description:
        '`partial`: the scan covers only the pages it lists (say, the pages a pull request touched). The deploy ' +
        "gate then compares it on those pages only (the baseline's issues on other pages are neither fixed nor " +
        'existing), and it never becomes a baseline. `full` (the default): the pages that make the site.',
    }),
  served: ServedFolderSchema.optional(),
  rules_run: z
    .array(Identifier(200))
    .max(5000)
    .nullable()
    .optional()
    .openapi({
      description:
        'The ids of every rule the engine ran (also those that found nothing), so a VPAT can tell ' +
        '"tested, nothing found" from "not tested". axe pages add their passes/violations/incomplete/' +
        'inapplicable rule ids; without either it is unknown (null).',
    }),
  scan_group: ScanGroup.optional().openapi({
    description:
      'Names the open scan that the parallel jobs of one CI run share (with `complete: false`): the first ' +
      'request opens it, the others find it (the same key on the same site answers the same scan). Pages ' +
      'then come in parts that name their shard.',
  }),
  shards: z
    .number()
    .int()
    .min(1)
    .max(MAX_SHARDS)
    .optional()
    .openapi({
      description:
        'How many shards complete the scan (with `complete: false`): when the last part of the last shard ' +
        'arrives, the scan completes. Without it, a sharded scan completes on request only.',
    }),
  claims: ClaimsInput.optional().openapi({
    description:
      'Fixes the change claims, as a deploy trigger names them: the gate answers them with its own when it ' +
      'judges this scan (docs/gate.md, "Claimed fixes").',
  }),
  complete: z
    .boolean()
    .default(true)
    .openapi({
      description:
        '`false` opens a scan to be sent in parts: add pages with `POST /api/v1/scans/{id}/pages`, then ' +
        '`POST /api/v1/scans/{id}/complete`. Until then the scan is invisible to lists, the gate and the VPAT.',
    }),
});

export const CreateScanBody = CreateScanHead.extend({
  pages: z.array(ScanPageInputSchema).openapi({
    description:
      'The scanned pages. With `complete: false`, the first pages of the scan (may be empty). One page, ' +
      'one address: pages whose URLs normalise alike (`/`, `/index.html`, `/#top`; docs/scans.md) are one ' +
      'page, and only the first is stored, with its issues; a later one is left out with its issues.',
  }),
}).openapi('CreateScan');
export type CreateScanBody = z.infer<typeof CreateScanBody>;
export type CreateScanHead = z.infer<typeof CreateScanHead>;

// The domain reads validated pages through its own types; this fails to compile when the two drift apart.
type _DomainReadsTheseOutputs = [
  OutputFits<typeof ScanPageInputSchema, input.ScanPageInput>,
  OutputFits<typeof NativeIssue, input.NativeIssueInput>,
  OutputFits<typeof AxeResults, input.AxeResultsInput>,
  OutputFits<typeof Pa11yIssue, input.Pa11yIssueInput>,
  OutputFits<typeof Pa11yInputSchema, input.Pa11yInput>,
];

/** A part's members other than its pages (unknown members are ignored). */
export const ScanPartHead = z.object(shardPartFields);

export const ScanPartBody = ScanPartHead.extend({
  pages: z.array(ScanPageInputSchema).openapi({
    description:
      'The next pages, in the same forms as in a whole scan. A page at an address the scan already ' +
      'holds (stored by an earlier part or shard) is left out with its issues: the first one stored wins.',
  }),
}).openapi('ScanPart');
export type ScanPartBody = z.infer<typeof ScanPartBody>;

export const ScanListQuery = PageQuery.extend({
  siteId: SiteId.optional(),
  sha: Sha.optional(),
  branch: Identifier(255).transform(branchName).optional(),
});
