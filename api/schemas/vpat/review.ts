import { ConformanceLevel, AppliedOverrideSchema, Text } from './reports.js';
import { PageQuery, SiteId, Timestamp, pageOf } from '../common.js';
import { z, type FitsSchema } from '../zod.js';
import type * as diff from '../../domain/vpat/diff.js';

export const ReviewDecision = z
  .object({
    criterion: Text(20).openapi({ example: '1.3.3' }),
    conformance: ConformanceLevel.optional().openapi({
      description: 'The level the reviewer grants (give either this or `confirm`).',
    }),
    confirm: z.literal(true).optional().openapi({
      description:
        'Accept the automated evidence: grants `supports` only where the row’s basis is `rules-passed` and no related failure is flagged.',
    }),
    remarks: Text(5000).openapi({
      description: 'Required: the reviewer’s explanation, shown in the report.',
    }),
  })
  .strict()
  .openapi('VpatReviewDecision');
export type ReviewDecision = z.infer<typeof ReviewDecision>;

export const ReviewBody = z
  .object({
    author: Text(200).openapi({
      description: 'The reviewer, by name (not a key’s), recorded with every decision.',
      example: 'Ada Reviewer',
    }),
    decisions: z.array(ReviewDecision).min(1).max(500).openapi({
      description:
        'One per criterion. Checked against the report after it is found: a criterion that is not a row, decided twice, or with neither or both of `conformance` and `confirm` answers 422 with pointers.',
    }),
  })
  .strict()
  .openapi('VpatReview');

export const PublishBody = z
  .object({
    publisher: Text(200).openapi({
      description: 'The person who signs the final report, by name (not a key’s).',
      example: 'Grace Officer',
    }),
    publish_behind: z.boolean().optional().openapi({
      description:
        'Publish as it is although results were recorded in its assessment after it was made (otherwise 409 naming them); the final version records what it left out (`published.behind`) and says so in every format.',
    }),
  })
  .strict()
  .openapi('VpatPublish');

export const VpatFormatQuery = z.object({
  format: z
    .enum(['json', 'html', 'md', 'openacr', 'pdf'])
    .default('json')
    .openapi({
      description:
        '`json` (default), `html` (a printable page in the ITI VPAT® layout), `md` (Markdown), `openacr` (OpenACR YAML) ' +
        'or `pdf` (a tagged, accessible PDF).',
    }),
});

export const DiffQuery = z.object({
  against: z.string().min(1).max(100).optional().openapi({
    description:
      'The report (or version) to compare with; default: the version this one was made from (none for a generated report: nothing changed).',
  }),
  format: z.enum(['json', 'html']).default('json'),
});

const RowState = z
  .object({ conformance: ConformanceLevel, basis: z.string(), remarks: z.string() })
  .nullable();
const Violations = z.object({ rule: z.string(), issues: z.number().int(), pages_affected: z.number().int() });
const Ref = z.object({
  id: z.string(),
  version: z.number().int(),
  status: z.enum(['draft', 'final']),
  scan_id: z.string(),
  created_at: Timestamp,
});

export const VpatDiffSchema = z
  .object({
    from: Ref,
    to: Ref,
    criteria: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        changed: z.array(z.enum(['conformance', 'basis', 'remarks'])),
        from: RowState,
        to: RowState,
      }),
    ),
    violations: z.object({
      new: z.array(Violations),
      resolved: z.array(Violations),
      changed: z.array(z.object({ rule: z.string(), from: Violations, to: Violations })),
    }),
    overrides: z.object({
      added: z.array(AppliedOverrideSchema),
      dropped: z.array(AppliedOverrideSchema),
      changed: z.array(
        z.object({ criterion: z.string(), from: AppliedOverrideSchema, to: AppliedOverrideSchema }),
      ),
      made_stale: z.array(AppliedOverrideSchema),
    }),
  })
  .openapi('VpatDiff');

export const VpatListQuery = PageQuery.extend({ siteId: SiteId });

export const VpatListItem = z
  .object({
    id: z.string(),
    siteId: z.string(),
    scan_id: z.string(),
    status: z.enum(['draft', 'final']),
    version: z.number().int(),
    previous_id: z.string().nullable(),
    edition: z.string(),
    wcag_version: z.string(),
    level: z.string(),
    product: z.object({ name: z.string().nullable(), version: z.string().nullable() }),
    undecided: z.number().int().nullable(),
    created_at: Timestamp,
  })
  .openapi('VpatListItem');

export const VpatList = pageOf(VpatListItem, 'VpatList');

// The domain's diff (named alike) is valid output of this schema.
type _DomainTypes = [FitsSchema<diff.VpatDiff, typeof VpatDiffSchema>];
