import { SiteId } from '../common.js';
import { z } from '../zod.js';
import { MAX_SHARDS } from '../../../core/scans/shards.js';

/** What a scan sent in shards by parallel CI jobs adds to the scans schemas: its group key and shards. */

/** Shards of one scan, and parts of one shard: far above any CI system's parallelism. */
const MAX_SHARD_PARTS = 10_000;

/** A group key: it travels in logs and job names, so a plain word of the characters CI ids are made of. */
export const ScanGroup = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'must be letters, digits, ".", "_", ":" or "-"')
  .openapi({ example: '3f786850e387-run-9876543210' });

/** The members of a part that say which shard it belongs to. */
export const shardPartFields = {
  shard: z.number().int().min(1).max(MAX_SHARDS).optional().openapi({
    description:
      'The shard these pages belong to (1 to `shards`); required when the scan was opened with `shards`.',
  }),
  shard_part: z
    .number()
    .int()
    .min(1)
    .max(MAX_SHARD_PARTS)
    .optional()
    .openapi({
      description:
        "Which of the shard's parts this is (default 1). Part 1 starts the shard afresh: pages an earlier run " +
        'of the same shard sent are replaced, never doubled.',
    }),
  shard_parts: z.number().int().min(1).max(MAX_SHARD_PARTS).optional().openapi({
    description: 'How many parts the shard sends (default 1): the shard has reported when the last arrives.',
  }),
};

/** Completing a sharded scan named by its group key. */
export const CompleteGroupBody = z
  .object({
    siteId: SiteId,
    scan_group: ScanGroup,
  })
  .openapi('CompleteScanGroup');
export type CompleteGroupBody = z.infer<typeof CompleteGroupBody>;
