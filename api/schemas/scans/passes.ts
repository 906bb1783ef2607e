import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { z } from '../zod.js';
import { Identifier } from './fields.js';

export const PassingElement = z
  .object({
    rule: Identifier(200).openapi({ example: 'image-alt' }),
    selector: z.string().max(8192).refine(isNulFree, NUL_MESSAGE).nullable().optional().openapi({
      description: 'As for an issue: axe-core’s `target` joined (frames ` |> `, shadow roots ` >>> `).',
    }),
    html: z
      .string()
      .nullable()
      .optional()
      .openapi({
        description:
          'The element’s markup (cut to 1,000 bytes when stored): a text rule’s new text is read from it ' +
          '(its `aria-label`, `alt`, `title`, `value` or `aria-labelledby`, else its text).',
      }),
  })
  .openapi('PassingElement', {
    description:
      'An element a rule passed on. Matched to the baseline’s issues by the same identity as violations, it ' +
      'tells a claimed fix `verified` (the element now passes) from `removed` (it is gone).',
  });
