import { cursorQuery } from '../../../api/store/scans/issue-cursor.js';
import { refreshIssueStatistics } from '../../../api/store/scans/statistics.js';
import { useHarness } from '../../helpers/harness.js';
import { describeWith, postgres } from '../../helpers/requirements.js';

// PostgreSQL's own EXPLAIN ANALYZE is the ground truth: what it did to read one screen of a large scan
// that was just stored into a table whose statistics knew nothing of it.

interface PlanNode {
  'Node Type': string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

const PAGES = 600;
const ISSUES_PER_PAGE = 20;

describeWith(postgres, 'reading a large new scan (postgres)', () => {
  const h = useHarness({ db: 'postgres', org: 'plans' });

  test('a screen of its issues reads one screen of rows, not the whole scan and a sort of it', async () => {
    const pages = Array.from({ length: PAGES }, (_, p) => ({
      url: `/p${p}`,
      issues: Array.from({ length: ISSUES_PER_PAGE }, (_, i) => ({ rule: 'image-alt', selector: `#e${i}` })),
    }));
    const scan = await h.request<{ id: string; issue_count: number }>('POST', '/api/v1/scans', {
      key: h.key,
      body: { url: 'https://plans.example/', siteId: 'plans', pages },
    });
    expect(scan.status).toBe(201);
    const query = cursorQuery(h.db, scan.body.id, { order: 'submission', after: 0, limit: 1000 });
    const explained = await h.db.raw<{ rows: Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }> }>(
      `explain (analyze, format json) ${query.toQuery()}`,
    );
    const plan = nodes(explained.rows[0]['QUERY PLAN'][0].Plan);
    expect(plan.map((n) => n['Node Type'])).not.toContain('Sort');
    expect(Math.max(...plan.map((n) => n['Actual Rows']))).toBe(1000);
    const analyzed = await h.db.raw<{ rows: Array<{ last_analyze: Date | null }> }>(
      "select last_analyze from pg_stat_user_tables where relname = 'scan_issues' and schemaname = current_schema()",
    );
    expect(analyzed.rows[0].last_analyze).not.toBeNull();
  });

  test('a small scan leaves the statistics to the database', async () => {
    expect(await refreshIssueStatistics(h.db, 9_999)).toBe(false);
  });
});
