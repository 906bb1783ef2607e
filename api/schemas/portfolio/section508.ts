import { Tag } from '../sites/tags.js';
import { z } from '../zod.js';
import { Format } from '../history/history.js';

export const Section508Query = z.object({
  year: z.coerce
    .number()
    .int()
    .min(2000)
    .max(2100)
    .optional()
    .openapi({ description: 'The calendar year (UTC). Default: this year.' }),
  group: Tag.optional().openapi({ description: 'Only the sites carrying this tag.' }),
  format: Format,
});

const figures = {
  pages_in_scope: z
    .number()
    .int()
    .openapi({ description: 'Pages tested automatically or assessed by people.' }),
  tested_automatically: z
    .number()
    .int()
    .openapi({ description: 'Page addresses in a full scan of the base branch that year.' }),
  assessed_by_people: z
    .number()
    .int()
    .openapi({ description: 'Pages with a person’s outcome (not untested) written that year.' }),
  fully_conformant: z.number().int().openapi({
    description:
      'Pages tested automatically with no open issue at their last scan of the year and no failed human result.',
  }),
};

export const Section508 = z
  .object({
    year: z.number().int(),
    group: z.string().nullable(),
    totals: z.object(figures),
    sites: z.array(z.object({ siteId: z.string(), ...figures })).openapi({ description: 'By siteId.' }),
  })
  .openapi('Section508', {
    description:
      'The Section 508 figures of a year (docs/portfolio.md); the totals are the sums of the sites.',
  });
export type Section508 = z.infer<typeof Section508>;
