import type * as coverage from '../../../core/gate/coverage.js';
import { z, type OutputIs } from '../zod.js';

/** A deploy event's `coverage`: which pages a partial scan compared. */
export const PageCoverageSchema = z
  .object({
    scope: z.literal('partial'),
    pages_compared: z.number().int().openapi({ description: "The head scan's pages: the pages compared." }),
    pages_total: z.number().int().openapi({
      description: "Those and the baseline's pages the head scan does not cover.",
    }),
    pages: z
      .array(z.string())
      .openapi({ description: 'The compared pages as the scan named them, in scan order, at most 100.' }),
    message: z.string().openapi({
      example:
        "Compared 2 of 14 pages: this scan covers only the pages listed; the baseline's issues on the other 12 pages count neither as fixed nor as existing.",
    }),
  })
  .openapi('PageCoverage');

// The kernel's coverage (core/gate/coverage.ts) is what this schema produces, exactly.
type _DomainCoverage = OutputIs<typeof PageCoverageSchema, coverage.PageCoverage>;
