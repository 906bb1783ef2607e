import { issueLimitError, pageLimitError } from '../../../api/domain/scans/preparation.js';
import { checkCount, LimitError } from '../../../api/domain/access/limits.js';

const limits = {
  pagesPerRequest: 10,
  issuesPerRequest: 100,
  pagesPerScan: 25,
  issuesPerScan: 250,
  issueHtmlBytes: 1000,
};

describe('scan limits: per request and per scan with its parts', () => {
  test('pages: a part that reaches the scan limit passes, one page more is refused naming pages_per_scan', () => {
    expect(pageLimitError(10, limits, 15)).toBeUndefined();
    expect(pageLimitError(1, limits, 25)).toMatchObject({
      status: 413,
      limit: { name: 'pages_per_scan', value: 25 },
    });
  });

  test('pages: the per-request limit is checked first, at and past it', () => {
    expect(pageLimitError(10, limits)).toBeUndefined();
    expect(pageLimitError(11, limits)).toMatchObject({ limit: { name: 'pages_per_request', value: 10 } });
  });

  test('issues: at the limits passes; past either is refused with its name', () => {
    expect(issueLimitError(limits, 100, 250, 0)).toBeUndefined();
    expect(issueLimitError(limits, 101, 101, 3)).toMatchObject({
      pointer: '#/pages/3',
      limit: { name: 'issues_per_request', value: 100 },
    });
    expect(issueLimitError(limits, 50, 251, 0)).toMatchObject({
      limit: { name: 'issues_per_scan', value: 250 },
    });
  });
});

describe('count limits', () => {
  test('reaching the value is allowed; one more is a 422 LimitError naming the limit', () => {
    expect(() => checkCount('keys_per_org', 3, 2, 'keys')).not.toThrow();
    let caught: unknown;
    try {
      checkCount('keys_per_org', 3, 3, 'keys');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(LimitError);
    expect(caught).toMatchObject({ limit: 'keys_per_org', value: 3, status: 422 });
  });
});
