import type {
  CreatedScan,
  DeployEvent,
  GroupScanComplete,
  GroupScanCompleted,
  OpenScan,
  Problem,
  ScanDetail,
  ScanList,
  ScanPartAccepted,
} from '../../helpers/api-types.js';
import { dbKinds, useHarness, type Harness } from '../../helpers/harness.js';
import { eventPayloads } from '../../helpers/outbox.js';

const SHA = 'c'.repeat(40);

function page(n: number) {
  return {
    url: `/p/${n}`,
    title: `Page ${n}`,
    http_status: 200,
    issues: [
      { rule: 'image-alt', impact: 'critical', selector: `#img-${n}`, html: `<img id="img-${n}">` },
      { rule: 'label', impact: n % 2 ? 'serious' : 'moderate', selector: `#in-${n}` },
    ],
  };
}

/** Pages 0..count-1 dealt to shards the way the scanner deals them: page i to shard (i mod n) + 1. */
const shardPages = (count: number, shard: number, n: number) =>
  Array.from({ length: count }, (_, i) => i)
    .filter((i) => i % n === shard - 1)
    .map(page);

async function count(h: Harness, table: string, where: Record<string, string> = {}) {
  return Number((await h.db(table).where(where).count({ n: '*' }))[0].n);
}

/** What makes two scans equal page for page and issue for issue, whatever order their parts came in. */
function contents(scan: ScanDetail) {
  const pages = scan.pages.map((p) => `${p.url}|${p.title}|${p.http_status}|${p.issue_count}`).sort();
  const issues = scan.issues.map((i) => `${i.page_url}|${i.rule}|${i.impact}|${i.selector}|${i.fingerprint}`);
  return { pages, issues: issues.sort(), summary: scan.summary };
}

describe.each(dbKinds)('sharded scans (%s)', (db) => {
  const h = useHarness({ db, org: 'acme' });

  const openGroup = <T = OpenScan>(group: string, body: Record<string, unknown> = {}) =>
    h.request<T>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        url: 'https://shards.example.com/',
        siteId: 'shards',
        sha: SHA,
        branch: 'feature',
        complete: false,
        scan_group: group,
        shards: 3,
        pages: [],
        ...body,
      },
    });
  const part = <T = ScanPartAccepted>(id: string, body: Record<string, unknown>, idem?: string) =>
    h.request<T>('POST', `/api/v1/scans/${id}/pages`, {
      key: h.key,
      body,
      headers: idem ? { 'idempotency-key': idem } : {},
    });
  const read = async (id: string) =>
    (await h.request<ScanDetail>('GET', `/api/v1/scans/${id}`, { key: h.key })).body;
  const gate = (sha = SHA) =>
    h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', { key: h.key, body: { siteId: 'shards', sha } });

  test('three shards fill one scan equal to the scan sent whole; the last shard completes it, once', async () => {
    const whole = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: { url: 'https://shards.example.com/', siteId: 'shards-whole', pages: shardPages(30, 1, 1) },
    });
    const first = await openGroup('run-1');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: 'open',
      scan_group: 'run-1',
      shards: { total: 3, reported: [], missing: [1, 2, 3] },
    });
    // The other jobs find the same scan.
    const second = await openGroup('run-1');
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    const id = first.body.id;

    const s2 = await part(id, { shard: 2, pages: shardPages(30, 2, 3) }, 'k-2');
    expect(s2.body).toMatchObject({ status: 'open', shards: { reported: [2], missing: [1, 3] } });
    // Shard 1 in two parts.
    const s1 = shardPages(30, 1, 3);
    const s1a = await part(id, { shard: 1, shard_part: 1, shard_parts: 2, pages: s1.slice(0, 4) }, 'k-1a');
    expect(s1a.body.shards).toMatchObject({ reported: [2], missing: [1, 3] });
    await part(id, { shard: 1, shard_part: 2, shard_parts: 2, pages: s1.slice(4) }, 'k-1b');
    expect((await h.request('GET', `/api/v1/scans/${id}`, { key: h.key })).status).toBe(404);
    const gateWaiting = await gate();
    expect(gateWaiting.body.scan_id).toBeNull();
    expect(gateWaiting.body.reasons[0].message).toContain('shard 3 of 3 has not reported');
    expect(gateWaiting.body.reasons[0].message).toContain('"run-1"');

    const s3 = await part(id, { shard: 3, pages: shardPages(30, 3, 3) }, 'k-3');
    expect(s3.status).toBe(200);
    expect(s3.body).toMatchObject({
      status: 'complete',
      expires_at: null,
      shards: { reported: [1, 2, 3], missing: [] },
    });
    expect(s3.body.scan?.summary.pages).toBe(30);
    expect(contents(await read(id))).toEqual(contents(await read(whole.body.id)));
    const events = await eventPayloads(h.db, 'scan.created');
    expect(events.filter((e) => (e.data as { id: string }).id === id)).toHaveLength(1);

    // The last part retried after its answer was lost: replayed, nothing added.
    await h.db('idempotency_keys').where({ idempotency_key: 'k-3' }).delete();
    const retried = await part(id, { shard: 3, pages: shardPages(30, 3, 3) }, 'k-3');
    expect(retried.body).toMatchObject({ status: 'complete', part: { replayed: true } });
    // A re-run of shard 2 after completion finds the scan complete and changes nothing.
    const rerun = await openGroup<GroupScanComplete>('run-1');
    expect(rerun.status).toBe(200);
    expect(rerun.body).toMatchObject({ id, status: 'complete', shards: { missing: [] } });
    const late = await part<Problem & { scan_status?: string }>(
      id,
      { shard: 2, pages: shardPages(30, 2, 3) },
      'k-2b',
    );
    expect(late.status).toBe(409);
    expect(late.body.scan_status).toBe('complete');
    expect((await read(id)).summary.pages).toBe(30);
    const judged = await gate();
    expect(judged.body.scan_id).toBe(id);
  });

  test('jobs that open the same group at once all get the one scan', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => openGroup('run-race')));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(await count(h, 'scans', { scan_group: 'run-race' })).toBe(1);
  });

  test('a shard sent again replaces its own pages, never doubles them', async () => {
    const id = (await openGroup('run-2')).body.id;
    await part(id, { shard: 1, pages: shardPages(12, 1, 3) }, 'a-1');
    await part(id, { shard: 2, pages: shardPages(12, 2, 3) }, 'a-2');
    // A re-run of shard 2 (another attempt: another key), with one page changed.
    const again = shardPages(12, 2, 3);
    again[0] = { ...again[0], issues: [again[0].issues[0]] };
    const rerun = await part(id, { shard: 2, pages: again }, 'a-2-attempt-2');
    expect(rerun.body).toMatchObject({
      pages_received: 8,
      issues_received: 15,
      shards: { reported: [1, 2] },
    });
    // A later part out of order is refused and stores nothing.
    const stray = await part<Problem>(id, { shard: 1, shard_part: 2, shard_parts: 2, pages: [page(99)] });
    expect(stray.status).toBe(409);
    const done = await part(id, { shard: 3, pages: shardPages(12, 3, 3) }, 'a-3');
    expect(done.body.scan?.summary).toMatchObject({ pages: 12, issues: 23 });
    const scan = await read(id);
    expect(scan.pages.map((p) => p.url).sort()).toEqual(
      shardPages(12, 1, 1)
        .map((p) => p.url)
        .sort(),
    );
    expect(scan.issues).toHaveLength(23);
    expect(new Set(scan.pages.map((p) => p.index)).size).toBe(12);
  });

  test('a missing shard keeps the scan open: complete answers 409 naming it, and nothing sees the scan', async () => {
    const sha = 'f'.repeat(40);
    const id = (await openGroup('run-3', { sha })).body.id;
    await part(id, { shard: 1, pages: shardPages(9, 1, 3) });
    await part(id, { shard: 2, pages: shardPages(9, 2, 3) });
    const refused = await h.request<Problem & { missing_shards?: number[] }>(
      'POST',
      '/api/v1/scans/complete',
      {
        key: h.key,
        body: { siteId: 'shards', scan_group: 'run-3' },
      },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.missing_shards).toEqual([3]);
    expect(refused.body.detail).toContain('shard 3 of 3 has not reported');
    const byId = await h.request<Problem>('POST', `/api/v1/scans/${id}/complete`, { key: h.key });
    expect(byId.status).toBe(409);
    const list = await h.request<ScanList>('GET', '/api/v1/scans?siteId=shards', { key: h.key });
    expect(list.body.data.map((s) => s.id)).not.toContain(id);
    const waiting = await gate(sha);
    expect(waiting.body.passed).toBe(false);
    expect(waiting.body.reasons[0].message).toContain('shard 3 of 3 has not reported');
    const events = await eventPayloads(h.db, 'scan.created');
    expect(events.filter((e) => (e.data as { id: string }).id === id)).toHaveLength(0);
  });

  test('without a shard count the final job completes the scan; a second complete answers it again', async () => {
    const opened = await openGroup('run-4', { shards: undefined, sha: 'd'.repeat(40) });
    expect(opened.body.shards).toEqual({ total: null, reported: [], missing: [] });
    await part(opened.body.id, { shard: 1, pages: shardPages(4, 1, 2) });
    await part(opened.body.id, { shard: 2, pages: shardPages(4, 2, 2) });
    const complete = (group: string) =>
      h.request<GroupScanCompleted>('POST', '/api/v1/scans/complete', {
        key: h.key,
        body: { siteId: 'shards', scan_group: group },
      });
    const done = await complete('run-4');
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: opened.body.id,
      completed_now: true,
      shards: { reported: [1, 2] },
    });
    expect(done.body.summary.pages).toBe(4);
    expect((await complete('run-4')).body.completed_now).toBe(false);
    expect((await complete('no-such-run')).status).toBe(404);
  });

  test('bad requests are refused with pointers and store nothing', async () => {
    const before = await count(h, 'scans');
    const withPages = await openGroup<Problem>('run-5', { pages: [page(1)] });
    expect(withPages.status).toBe(422);
    expect(withPages.body.errors!.map((e) => e.pointer)).toEqual(['#/pages']);
    expect((await openGroup<Problem>('run-5', { complete: true })).status).toBe(422);
    expect((await openGroup<Problem>('bad key!')).status).toBe(422);
    expect((await openGroup<Problem>('run-5', { shards: 0 })).status).toBe(422);
    expect(await count(h, 'scans')).toBe(before);
    const id = (await openGroup('run-5')).body.id;
    // Another count or another commit for the same key is a conflict.
    expect((await openGroup<Problem>('run-5', { shards: 4 })).status).toBe(409);
    expect((await openGroup<Problem>('run-5', { sha: 'e'.repeat(40) })).status).toBe(409);
    const over = await part<Problem>(id, { shard: 4, pages: [page(1)] });
    expect(over.status).toBe(422);
    expect(over.body.errors![0].pointer).toBe('#/shard');
    const unnamed = await part<Problem>(id, { pages: [page(1)] });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.errors![0].pointer).toBe('#/shard');
    expect(await count(h, 'scan_pages', { scan_id: id })).toBe(0);
    // Another org does not find the group.
    const other = await h.createKey({ org: 'globex' });
    const theirs = await h.request<Problem>('POST', '/api/v1/scans/complete', {
      key: other,
      body: { siteId: 'shards', scan_group: 'run-5' },
    });
    expect(theirs.status).toBe(404);
  });
});
