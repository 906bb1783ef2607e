import type { Problem, ScanDetail } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

interface IssuePage {
  data: ScanDetail['issues'];
  next_cursor: string | null;
}

describe.each(dbKinds)('a scan issues, page by page (%s)', (db) => {
  const h = useHarness({ db, org: 'pages' });

  test('the pages, read to the end, hold exactly the issues of the streamed scan, in order', async () => {
    const pages = Array.from({ length: 3 }, (_, p) => ({
      url: `/p${p}`,
      issues: Array.from({ length: p + 2 }, (_, i) => ({ rule: 'image-alt', selector: `#p${p}-${i}` })),
    }));
    const scan = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: h.key,
      body: { url: 'https://paged.example/', siteId: 'paged', pages },
    });
    const whole = await h.request<ScanDetail>('GET', `/api/v1/scans/${scan.body.id}`, { key: h.key });
    expect(whole.body.issues).toHaveLength(9);
    const read: ScanDetail['issues'] = [];
    let next: string | null = `/api/v1/scans/${scan.body.id}/issues?limit=4`;
    let requests = 0;
    while (next) {
      const res: { status: number; body: IssuePage; headers: Headers } = await h.request<IssuePage>(
        'GET',
        next,
        {
          key: h.key,
        },
      );
      expect(res.status).toBe(200);
      read.push(...res.body.data);
      requests++;
      next = res.body.next_cursor ? /<([^>]+)>/.exec(res.headers.get('link') ?? '')![1] : null;
    }
    expect(requests).toBe(3);
    expect(read).toEqual(whole.body.issues);
  });

  test("another org's scan is 404; a forged cursor is 422", async () => {
    const other = await h.createKey({ org: 'pages-other' });
    const scan = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://paged.example/',
        siteId: 'paged',
        pages: [{ url: '/', issues: [{ rule: 'r' }] }],
      },
    });
    expect((await h.request('GET', `/api/v1/scans/${scan.body.id}/issues`, { key: other })).status).toBe(404);
    const forged = Buffer.from(JSON.stringify(['x'])).toString('base64url');
    const res = await h.request<Problem>('GET', `/api/v1/scans/${scan.body.id}/issues?cursor=${forged}`, {
      key: h.key,
    });
    expect(res.status).toBe(422);
  });
});
