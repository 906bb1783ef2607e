import { createHash } from 'node:crypto';
import type {
  OpenScan,
  Problem,
  ScanDetail,
  ScanPartAccepted,
  StoredScreenshots,
} from '../../helpers/api-types.js';
import { elementPng } from '../../helpers/element-png.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

// Pictures sent by the jobs of a sharded run into the one open scan: each shard's pictures are stored before
// its last part reports it, a re-run of a shard takes its old pictures out with its pages, and what the
// complete scan holds is one picture per violation pictured, each on the right page.

function page(n: number, colour = 'red') {
  return {
    url: `/p/${n}`,
    title: `Page ${n}`,
    http_status: 200,
    issues: [
      { rule: 'image-alt', impact: 'critical', selector: `#img-${n}`, html: `<img class="${colour}">` },
    ],
  };
}
const red = elementPng([200, 0, 0], 10, 10);
const blue = elementPng([0, 0, 200], 12, 10);
const image = (n: number, png: Buffer) => ({
  page_url: `/p/${n}`,
  rule: 'image-alt',
  selector: `#img-${n}`,
  png: png.toString('base64'),
});

describe.each(dbKinds)('pictures of a sharded scan (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });
  const open = (group: string) =>
    h.request<OpenScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://shards.example.com/',
        siteId: 'shots',
        sha: 'd'.repeat(40),
        complete: false,
        scan_group: group,
        shards: 2,
        pages: [],
      },
    });
  const part = (id: string, shard: number, n: number, of: number, pages: unknown[]) =>
    h.request<ScanPartAccepted>('POST', `/api/v1/scans/${id}/pages`, {
      key: h.key,
      body: { shard, shard_part: n, shard_parts: of, pages },
    });
  const pictures = (id: string, images: unknown[]) =>
    h.request<StoredScreenshots & Problem>('POST', `/api/v1/scans/${id}/screenshots`, {
      key: h.key,
      body: { images },
    });
  const rows = (id: string) =>
    h
      .db('scan_screenshots as s')
      .join('scan_issues as i', 'i.id', 's.issue_id')
      .join('scan_pages as p', (j) => j.on('p.scan_id', 's.scan_id').andOn('p.page_index', 's.page_index'))
      .where('s.scan_id', id)
      .orderBy('p.url')
      .select<Array<{ url: string; sha256: string; issue_page: number; page_index: number; html: string }>>(
        'p.url',
        's.sha256',
        'i.page_index as issue_page',
        's.page_index',
        'i.html',
      );

  test('each shard pictures its pages in the open scan; a re-run replaces its pictures with its pages', async () => {
    const id = (await open('run-shots')).body.id;
    // Shard 1: its pages (a part that does not report it), its pictures, then an empty last part.
    expect((await part(id, 1, 1, 2, [page(0), page(2)])).body.shards).toMatchObject({ reported: [] });
    const first = await pictures(id, [image(0, red), image(2, red)]);
    expect(first.status).toBe(201);
    expect(first.body.images.map((i) => i.page_url)).toEqual(['/p/0', '/p/2']);
    // Nobody reads a picture of an open scan.
    const early = await h.request('GET', `/api/v1/scans/${id}/screenshots/${first.body.images[0].id}`, {
      key: h.key,
    });
    expect(early.status).toBe(404);
    expect((await part(id, 1, 2, 2, [])).body.shards).toMatchObject({ reported: [1], missing: [2] });

    // A picture of a page the scan does not hold yet (shard 2's) names no violation: refused, nothing stored.
    const stray = await pictures(id, [image(1, red)]);
    expect(stray.status).toBe(422);
    expect(await rows(id)).toHaveLength(2);

    // Shard 1 run again with page 2 changed: its old pictures go with its old pages.
    await part(id, 1, 1, 2, [page(0), page(2, 'blue')]);
    expect(await rows(id)).toHaveLength(0);
    expect((await pictures(id, [image(0, red), image(2, blue)])).status).toBe(201);
    await part(id, 1, 2, 2, []);

    await part(id, 2, 1, 2, [page(1), page(3)]);
    expect((await pictures(id, [image(1, red)])).status).toBe(201);
    const last = await part(id, 2, 2, 2, []);
    expect(last.body).toMatchObject({ status: 'complete', shards: { missing: [] } });

    // The complete scan: one picture per pictured violation, each tied to its own page's issue.
    const stored = await rows(id);
    expect(stored.map((r) => r.url)).toEqual(['/p/0', '/p/1', '/p/2']);
    for (const r of stored) expect(r.issue_page).toBe(r.page_index);
    expect(stored.find((r) => r.url === '/p/2')?.html).toBe('<img class="blue">');
    const sha = (png: Buffer) => createHash('sha256').update(png).digest('hex');
    expect(stored.map((r) => r.sha256)).toEqual([sha(red), sha(red), sha(blue)]);
    const scan = (await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key })).body;
    expect(scan.summary.pages).toBe(4);
    const list = await h.db('scan_screenshots').where({ scan_id: id }).select('id');
    expect(list).toHaveLength(stored.length);
    for (const { id: image } of list) {
      const png = await h.request('GET', `/api/v1/scans/${id}/screenshots/${image}`, { key: h.key });
      expect(png.status).toBe(200);
    }
  });

  test('an open scan past its time to complete takes no pictures', async () => {
    const id = (await open('run-late')).body.id;
    await part(id, 1, 1, 2, [page(0)]);
    await h.db('scans').where({ id }).update({ expires_at: '2000-01-01T00:00:00.000Z' });
    const late = await pictures(id, [image(0, red)]);
    expect(late.status).toBe(404);
    expect(await h.db('scan_screenshots').where({ scan_id: id })).toHaveLength(0);
  });
});
