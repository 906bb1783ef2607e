import type { Knex } from 'knex';

/**
 * The automated evidence of one criterion on an assessment's sampled pages: violation and needs-review
 * counts per page and rule, and the needs-review (`incomplete`) results themselves, which a person answers.
 */

export interface AutomatedCount {
  page: string;
  rule: string;
  kind: string;
  issues: number;
}

export interface ReviewItem {
  page: string;
  rule: string;
  selector: string | null;
  message: string | null;
  helpUrl: string | null;
}

/** Issues naming `criterion` on the scan's pages whose URL is one of `pages`. */
function issuesOn(db: Knex, scanId: string, pages: readonly string[], criterion: string) {
  return db('scan_issues as i')
    .join('scan_pages as p', function () {
      this.on('p.scan_id', '=', 'i.scan_id').andOn('p.page_index', '=', 'i.page_index');
    })
    .where('i.scan_id', scanId)
    .whereIn('p.url', [...pages])
    .andWhere((w) => {
      // The column holds comma-separated ids: match the id as a whole item.
      w.where('i.wcag', criterion)
        .orWhere('i.wcag', 'like', `${criterion},%`)
        .orWhere('i.wcag', 'like', `%,${criterion}`)
        .orWhere('i.wcag', 'like', `%,${criterion},%`);
    });
}

export async function automatedCounts(
  db: Knex,
  scanId: string,
  pages: readonly string[],
  criterion: string,
): Promise<AutomatedCount[]> {
  if (pages.length === 0) return [];
  const rows = await issuesOn(db, scanId, pages, criterion)
    .groupBy('p.url', 'i.rule', 'i.kind')
    .orderBy(['p.url', 'i.rule', 'i.kind'])
    .select('p.url as page', 'i.rule as rule', 'i.kind as kind')
    .count<Array<{ page: string; rule: string; kind: string; n: number | string }>>({ n: '*' });
  return rows.map((r) => ({ page: r.page, rule: r.rule, kind: r.kind, issues: Number(r.n) }));
}

/** At most `limit` needs-review results, in page and rule order. */
export async function reviewItems(
  db: Knex,
  scanId: string,
  pages: readonly string[],
  criterion: string,
  limit = 200,
): Promise<ReviewItem[]> {
  if (pages.length === 0) return [];
  const rows = await issuesOn(db, scanId, pages, criterion)
    .andWhere('i.kind', 'incomplete')
    .orderBy(['p.url', 'i.rule', 'i.id'])
    .limit(limit)
    .select<
      Array<{
        page: string;
        rule: string;
        selector: string | null;
        message: string | null;
        help_url: string | null;
      }>
    >(
      'p.url as page',
      'i.rule as rule',
      'i.selector as selector',
      'i.message as message',
      'i.help_url as help_url',
    );
  return rows.map((r) => ({
    page: r.page,
    rule: r.rule,
    selector: r.selector,
    message: r.message,
    helpUrl: r.help_url,
  }));
}
