import { IMPACTS, ISSUE_KINDS } from '../../../core/impact.js';
import { SOURCE_METHODS } from '../../../core/scans/imported-issue.js';
import { pageOf, Timestamp } from '../common.js';
import { z, type FitsSchema, type OutputIs } from '../zod.js';
import type * as impact from '../../../core/impact.js';
import type * as summary from '../../domain/scans/summary.js';

/** What the scans endpoints answer (the input schemas are in scans.ts). */

export const ImpactSchema = z.enum(IMPACTS).openapi('Impact');
export const IssueKindSchema = z
  .enum(ISSUE_KINDS)
  .openapi('IssueKind', { description: '`incomplete` = needs human review (axe "incomplete").' });

export const IssueSourceOut = z
  .object({
    path: z.string().openapi({ description: 'Relative to the repository root.' }),
    line: z.number().int().nullable(),
    column: z.number().int().nullable(),
    method: z
      .enum(SOURCE_METHODS)
      .nullable()
      .openapi({
        description:
          'How the scanner found it: `attribute` (a dev-build attribute on the element or an ancestor), ' +
          '`static` (the page is a file of the repository, read with source positions); null when not said.',
      }),
  })
  .openapi('IssueSource', { description: "Where the issue's element comes from in the repository." });

const Counts = (keys: readonly string[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int().min(0)])));

export const ScanSummarySchema = z
  .object({
    pages: z.number().int().min(0),
    issues: z.number().int().min(0),
    by_impact: Counts([...IMPACTS, 'unknown']).openapi({
      description: '`unknown` counts issues that came without an impact.',
    }),
    by_kind: Counts(['violation', 'incomplete']),
  })
  .openapi('ScanSummary');

export const ScanWarningSchema = z
  .object({
    code: z
      .enum(['no_pages', 'http_error_pages', 'shared_final_url', 'shared_title', 'html_truncated'])
      .openapi({ description: 'Stable code of the suspicion.' }),
    message: z.string(),
    count: z.number().int().min(0).openapi({ description: 'How many pages (or issues) it concerns.' }),
  })
  .openapi('ScanWarning');

export const Engine = z.object({ name: z.string(), version: z.string().nullable() }).openapi('Engine');

export const CreatedScan = z
  .object({
    id: z.string().openapi({ example: 'scn_4Rk0s2xvB9cQm1pZtY7a' }),
    siteId: z.string(),
    url: z.string(),
    sha: z.string().nullable(),
    branch: z.string().nullable(),
    created_at: Timestamp,
    summary: ScanSummarySchema,
    warnings: z.array(ScanWarningSchema),
  })
  .openapi('CreatedScan');

export const ShardStatusSchema = z
  .object({
    total: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'How many shards complete the scan; null when it completes on request only.' }),
    reported: z.array(z.number().int()).openapi({ description: 'The shards whose every part arrived.' }),
    missing: z
      .array(z.number().int())
      .openapi({ description: 'The shards (1 to total) that have not reported; empty when total is null.' }),
  })
  .openapi('ShardStatus', { description: 'Which shards of a sharded scan have reported.' });

export const OpenScan = z
  .object({
    id: z.string().openapi({ example: 'scn_4Rk0s2xvB9cQm1pZtY7a' }),
    status: z.enum(['open', 'complete']).openapi({
      description:
        '`open` while parts may come; `complete` only in the answer to the part that completed a sharded ' +
        'scan (its shard was the last to report).',
    }),
    siteId: z.string(),
    url: z.string(),
    sha: z.string().nullable(),
    branch: z.string().nullable(),
    expires_at: Timestamp.nullable().openapi({
      description: 'When the scan is removed unless completed before; null once it is complete.',
    }),
    pages_received: z.number().int().min(0),
    issues_received: z.number().int().min(0),
    scan_group: z
      .string()
      .optional()
      .openapi({ description: 'The group key that names this scan, when it was opened with one.' }),
    shards: ShardStatusSchema.optional(),
  })
  .openapi('OpenScan', { description: 'A scan being sent in parts: invisible until completed.' });

/** A scan named by its group key that is already complete: every shard reported, or it was completed. */
export const GroupScanComplete = CreatedScan.extend({
  status: z.literal('complete'),
  scan_group: z.string(),
  shards: ShardStatusSchema,
}).openapi('GroupScanComplete');

/** The answer of completing a scan named by its group key. */
export const GroupScanCompleted = GroupScanComplete.extend({
  completed_now: z.boolean().openapi({
    description: 'true when this request completed the scan; false when it was complete already.',
  }),
}).openapi('GroupScanCompleted');

export const ScanPartAccepted = OpenScan.extend({
  scan: CreatedScan.optional().openapi({
    description: 'The complete scan, when this part completed it (its shard was the last to report).',
  }),
  part: z
    .object({
      first_page_index: z
        .number()
        .int()
        .min(0)
        .openapi({ description: "The index the part's first page got." }),
      pages: z.number().int().min(0),
      issues: z.number().int().min(0),
      replayed: z
        .boolean()
        .openapi({ description: 'true when this Idempotency-Key was already stored: nothing was added.' }),
    })
    .openapi({ description: 'What this request added.' }),
}).openapi('ScanPartAccepted');

export const ScanListItem = CreatedScan.extend({
  engine: Engine.nullable(),
  run_attempt: z.number().int().nullable(),
  fingerprint_version: z.number().int(),
}).openapi('ScanSummaryItem');

export const ScanPage = z
  .object({
    index: z.number().int().min(0),
    url: z.string(),
    viewport: z.string().nullable().openapi({
      description: 'The viewport the page was scanned at, as submitted; null: the one default viewport.',
    }),
    normalized_url: z.string(),
    title: z.string().nullable(),
    final_url: z.string().nullable(),
    http_status: z.number().int().nullable(),
    issue_count: z.number().int().min(0),
  })
  .openapi('ScanPage');

export const ScanIssue = z
  .object({
    page_index: z.number().int().min(0),
    page_url: z.string(),
    rule: z.string(),
    impact: ImpactSchema.nullable(),
    kind: IssueKindSchema,
    message: z.string().nullable(),
    selector: z.string().nullable(),
    html: z.string().nullable(),
    wcag: z.array(z.string()),
    help_url: z.string().nullable(),
    source: IssueSourceOut.nullable(),
    fingerprint: z.string().openapi({
      description:
        'sha256(rule | normalised page path | normalised selector), hex; a page with a viewport adds ' +
        '` @viewport` to its path.',
    }),
    waiver_id: z
      .string()
      .nullable()
      .openapi({
        description:
          'The oldest active waiver of this site that covers the issue at the time of reading (the deploy ' +
          "gate's matcher), else null. A live view: waivers change after the scan; a deploy event records " +
          'what its gate waived. A waived issue is still an issue.',
      }),
  })
  .openapi('ScanIssue');

export const ScanDetail = ScanListItem.extend({
  rules_run: z.array(z.string()).nullable(),
  pages: z.array(ScanPage),
  issues: z.array(ScanIssue),
  waived: z
    .number()
    .int()
    .min(0)
    .openapi({ description: 'How many of the issues an active waiver covers at the time of reading.' }),
}).openapi('Scan');

export const ScanList = pageOf(ScanListItem, 'ScanList');

// The domain's types (named alike) are what these schemas produce (exactly, or as valid output).
type _DomainTypes = [
  OutputIs<typeof ImpactSchema, impact.Impact>,
  OutputIs<typeof IssueKindSchema, impact.IssueKind>,
  FitsSchema<summary.ScanSummary, typeof ScanSummarySchema>,
  OutputIs<typeof ScanWarningSchema, summary.ScanWarning>,
];
