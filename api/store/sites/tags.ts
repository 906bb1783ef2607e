import type { Knex } from 'knex';

/** The tags (groups) sites carry (docs/portfolio.md): one row per site and tag. */

export async function readSiteTags(db: Knex, org: string, siteId: string): Promise<string[]> {
  const rows = await db('site_tags')
    .where({ org, site_id: siteId })
    .orderBy('tag')
    .select<Array<{ tag: string }>>('tag');
  return rows.map((r) => r.tag);
}

/** Replaces the site's tags with `tags`. */
export async function writeSiteTags(
  trx: Knex.Transaction,
  org: string,
  siteId: string,
  tags: readonly string[],
): Promise<void> {
  await trx('site_tags').where({ org, site_id: siteId }).delete();
  if (tags.length > 0) await trx('site_tags').insert(tags.map((tag) => ({ org, site_id: siteId, tag })));
}

/** Every tag of the org with its sites, by tag. */
export async function orgTags(db: Knex, org: string): Promise<Map<string, string[]>> {
  const rows = await db('site_tags')
    .where({ org })
    .orderBy(['tag', 'site_id'])
    .select<Array<{ tag: string; site_id: string }>>('tag', 'site_id');
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.tag, [...(out.get(r.tag) ?? []), r.site_id]);
  return out;
}

/** The siteIds carrying `tag`, in order. */
export async function sitesTagged(db: Knex, org: string, tag: string): Promise<string[]> {
  const rows = await db('site_tags')
    .where({ org, tag })
    .orderBy('site_id')
    .select<Array<{ site_id: string }>>('site_id');
  return rows.map((r) => r.site_id);
}
