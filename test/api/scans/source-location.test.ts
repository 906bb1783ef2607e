import type { CreatedScan, DeployEvent, Problem, ScanDetail, ScanList } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

/** An axe-core result as the scanner sends it: each node may carry where the element comes from. */
function axePage(sources: Array<Record<string, unknown> | undefined>) {
  return {
    testEngine: { name: 'axe-core', version: '4.14.1' },
    violations: [
      {
        id: 'image-alt',
        impact: 'critical',
        tags: ['wcag2a', 'wcag111'],
        help: 'Images must have alternative text',
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.14/image-alt',
        nodes: sources.map((source, i) => ({
          target: [`#gallery > img:nth-child(${i + 1})`],
          html: `<img src="/p${i}.jpg">`,
          failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute',
          ...(source === undefined ? {} : { source }),
        })),
      },
    ],
  };
}

describe.each(dbKinds)('issue source locations (%s)', (db) => {
  const h = useHarness({ db, org: 'loc' });

  async function submit(sha: string, branch: string, sources: Array<Record<string, unknown> | undefined>) {
    return h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'loc-site',
        url: 'http://site.test/',
        sha,
        branch,
        pages: [{ url: 'http://site.test/gallery.html', axe: axePage(sources) }],
      },
    });
  }

  test('a location per axe node is kept, shown by the scan and the deploy event, and changes no fingerprint', async () => {
    const located = { path: 'public/gallery.html', line: 14, column: 7, method: 'static' };
    const created = await submit('1'.repeat(40), 'feature', [
      located,
      undefined,
      { path: 'src/A.vue', line: 3 },
    ]);
    expect(created.status).toBe(201);
    const scan = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key: h.key });
    expect(scan.body.issues.map((i) => i.source)).toEqual([
      located,
      null,
      { path: 'src/A.vue', line: 3, column: null, method: null },
    ]);

    // The same findings without locations have the same fingerprints: matching never depends on them.
    const plain = await submit('2'.repeat(40), 'other', [undefined, undefined, undefined]);
    const other = await h.request<ScanDetail>('GET', `/api/v1/scans/${plain.body.id}`, { key: h.key });
    expect(other.body.issues.map((i) => i.fingerprint)).toEqual(scan.body.issues.map((i) => i.fingerprint));

    const event = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key: h.key,
      body: { siteId: 'loc-site', sha: '1'.repeat(40) },
    });
    expect(event.status).toBe(201);
    const first = event.body.new_issues.find((i) => i.selector === '#gallery > img:nth-child(1)');
    expect(first?.source).toEqual(located);
    expect(first?.html).toBe('<img src="/p0.jpg">');
  });

  test('a malformed location is refused with a pointer and nothing is stored', async () => {
    const before = await h.request<ScanList>('GET', '/api/v1/scans?siteId=loc-site', { key: h.key });
    for (const bad of [
      { path: 'a.html', line: 0 },
      { path: 'a.html', line: 3, column: -1 },
      { path: 'a.html', line: 3, method: 'guess' },
      { line: 3 },
    ]) {
      const res = await h.request<Problem>('POST', '/api/v1/scans', {
        key: h.key,
        body: {
          siteId: 'loc-site',
          url: 'http://site.test/',
          sha: '3'.repeat(40),
          pages: [{ url: 'http://site.test/', axe: axePage([bad]) }],
        },
      });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toContain('/pages/0/axe/violations/0/nodes/0/source');
    }
    const after = await h.request<ScanList>('GET', '/api/v1/scans?siteId=loc-site', { key: h.key });
    expect(after.body.data.length).toBe(before.body.data.length);
  });
});
