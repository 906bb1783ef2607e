import type { Knex } from 'knex';

/**
 * The keyset condition of a newest-first list ordered by (`column` desc, id desc): the rows strictly after
 * the cursor's row. Every paged list of the API reads its next page this way, so a row written between two
 * reads neither repeats nor hides another.
 */
function olderThan(q: Knex.QueryBuilder, column: string, value: string, id: string | number): void {
  q.andWhere((w) => {
    w.where(column, '<', value).orWhere((o) => {
      o.where(column, '=', value).andWhere('id', '<', id);
    });
  });
}

/**
 * One page of a newest-first list: ordered by (`column` desc, id desc), `limit` rows, strictly after the
 * cursor's row when there is one. Every paged list of the store reads through this.
 */
export function newestFirst(
  q: Knex.QueryBuilder,
  column: string,
  limit: number,
  after: { at: string; id: string | number } | undefined,
): void {
  q.orderBy([
    { column, order: 'desc' },
    { column: 'id', order: 'desc' },
  ]).limit(limit);
  if (after) olderThan(q, column, after.at, after.id);
}
