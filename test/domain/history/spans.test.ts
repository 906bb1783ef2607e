import { historyDays } from '../../../api/domain/history/days.js';
import { replayScans, type HistoryScan, type HistorySpan } from '../../../api/domain/history/spans.js';

const scan = (at: string, pages: string[], issues: Array<[string, string]>): HistoryScan => ({
  at,
  pageKeys: new Set(pages),
  issues: new Map(issues.map(([f, page]) => [f, { rule: `rule-${f}`, impact: 'serious', pageKey: page }])),
});

describe('history spans', () => {
  test('an issue fixed and back is a regression; a page that leaves the scans is not a fix, and its issue returns with its count', () => {
    const latest = new Map<string, HistorySpan>();
    const spans = replayScans(latest, [
      scan(
        '2026-01-01T10:00:00.000Z',
        ['/a', '/b'],
        [
          ['x', '/a'],
          ['y', '/b'],
        ],
      ),
      scan('2026-01-02T10:00:00.000Z', ['/a'], []),
      scan(
        '2026-01-03T10:00:00.000Z',
        ['/a', '/b'],
        [
          ['x', '/a'],
          ['y', '/b'],
        ],
      ),
    ]);
    const summary = spans.map((s) => [
      s.fingerprint,
      s.startedBy,
      s.dueFrom.slice(0, 10),
      s.endedBy,
      s.endedAt?.slice(0, 10) ?? null,
    ]);
    expect(summary).toEqual([
      ['x', 'new', '2026-01-01', 'fixed', '2026-01-02'],
      ['y', 'new', '2026-01-01', 'unscanned', '2026-01-02'],
      ['x', 'regression', '2026-01-03', null, null],
      ['y', 'return', '2026-01-01', null, null],
    ]);
    const days = historyDays(['2026-01-01', '2026-01-02', '2026-01-03'], spans);
    expect(days.map((d) => [d.open.serious, d.new, d.fixed, d.regressions, d.unscanned])).toEqual([
      [2, 2, 0, 0, 0],
      [0, 0, 1, 0, 1],
      [2, 0, 0, 1, 0],
    ]);
    expect(days[2].openByRule).toEqual({ 'rule-x': 1, 'rule-y': 1 });
  });
});
