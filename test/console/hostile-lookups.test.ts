import { dbKinds, useHarness } from '../helpers/harness.js';
import { ConsoleClient } from './client.js';
import { seedConsole, type Seeded } from './seed.js';

/**
 * Look-ups with values no id or cursor can hold (NUL, which PostgreSQL refuses in text) answer the
 * console's 404 page on both databases, and help URLs that are not http(s) are never links.
 */
describe.each(dbKinds)('console look-ups with hostile values (%s)', (db) => {
  const h = useHarness({ db });
  let s: Seeded;
  const c = () => new ConsoleClient(h.url);
  let signedIn: ConsoleClient;
  beforeAll(async () => {
    s = await seedConsole(h);
    signedIn = c();
    expect(await signedIn.signIn(s.key)).toBe('/');
  });

  test('NUL in an id, a cursor, a comparison or a filter is 404, not 500', async () => {
    const paths = [
      '/reports/%00',
      `/reports/${s.reportId}/changes?against=%00`,
      '/?after=%00',
      `/scans/${s.headScanId}?rule=%00`,
      `/scans/${s.headScanId}?after=%00`,
      '/sites/%00',
      '/deploys/a%00b',
      `/sites/${s.siteId}?deploys=%00`,
    ];
    for (const path of paths) {
      const res = await signedIn.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).toContain('There is nothing here');
    }
  });

  test('a help URL that is not http(s) is shown as text, never as a link', async () => {
    const k = await h.createKey({ org: 'acme' });
    const issue = (rule: string, help_url: string) => ({ rule, selector: `#${rule}`, help_url });
    const scan = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: k,
      body: {
        url: 'https://links.example/',
        siteId: 'links',
        pages: [
          {
            url: '/',
            issues: [
              issue('js-rule', 'javascript:alert(1)'),
              issue('data-rule', 'data:text/html,<b>x</b>'),
              issue('web-rule', 'https://dequeuniversity.com/rules/axe/4.10/image-alt'),
            ],
          },
        ],
      },
    });
    expect(scan.status).toBe(201);
    const page = await signedIn.get(`/scans/${scan.body.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/href="(javascript|data):/);
    expect(page.text).toContain('<code>javascript:alert(1)</code>');
    expect(page.text).toContain(
      '<a href="https://dequeuniversity.com/rules/axe/4.10/image-alt">About web-rule</a>',
    );
  });

  test('user-supplied text with a direction of its own is isolated in <bdi>', async () => {
    const k = await h.createKey({ org: 'acme', scopes: ['read', 'ingest', 'manage'] });
    const name = 'shop \u202Egnp.exe';
    const hebrew = '/\u05E9\u05DC\u05D5\u05DD';
    expect((await h.request('PATCH', '/api/v1/sites/bidi', { key: k, body: { name } })).status).toBe(200);
    const scan = await h.request<{ id: string }>('POST', '/api/v1/scans', {
      key: k,
      body: {
        url: 'https://bidi.example/',
        siteId: 'bidi',
        pages: [{ url: hebrew, issues: [{ rule: 'r' }] }],
      },
    });
    const sites = await signedIn.get('/');
    expect(sites.text).toContain(`<bdi>${name}</bdi>`);
    const page = await signedIn.get(`/scans/${scan.body.id}`);
    expect(page.text).toContain(`<dt>Page</dt><dd><bdi>${hebrew}</bdi></dd>`);
    // The title cannot hold markup: the name is there as text.
    expect(page.text).not.toMatch(/<title>[^<]*<bdi>/);
  });
});
