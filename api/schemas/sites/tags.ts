import { SiteId } from '../common.js';
import { z } from '../zod.js';

/** The most tags one site carries. */
export const MAX_SITE_TAGS = 20;

export const Tag = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9][a-z0-9._-]{0,49}$/,
    'must be 1-50 of a-z, 0-9, `.`, `_`, `-`, starting with a letter or digit',
  )
  .openapi({ example: 'checkout', description: 'A group of sites; compared in lower case.' });

export const PutSiteTagsBody = z
  .object({
    tags: z
      .array(Tag)
      .max(MAX_SITE_TAGS)
      .transform((tags) => [...new Set(tags)].sort())
      .openapi({
        description: `The site's tags, replacing its current ones (at most ${MAX_SITE_TAGS}; [] clears).`,
      }),
  })
  .strict()
  .openapi('PutSiteTags');

export const SiteTags = z
  .object({ siteId: SiteId, tags: z.array(z.string()).openapi({ description: 'In alphabetical order.' }) })
  .openapi('SiteTags');
export type SiteTags = z.infer<typeof SiteTags>;

export const TagList = z
  .object({
    data: z.array(
      z.object({
        tag: z.string(),
        sites: z.array(z.string()).openapi({ description: 'The siteIds carrying the tag, in order.' }),
      }),
    ),
  })
  .openapi('TagList', { description: "The org's tags, in alphabetical order." });
export type TagList = z.infer<typeof TagList>;
