import type { CreatedScan, DeployEvent, Problem } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';
import { buildCheckRun } from '../../../app/check-run-payload.js';

// A scan of a built folder the CLI served (`--serve site`) is at a loopback port that lasted one run: the
// service keeps the folder's name with the scan, and the check run names the failing pages by path with
// `--serve site` in the command that scans them again, as the CLI itself does.

const origin = 'http://127.0.0.1:40123';
const label = { rule: 'label', impact: 'critical', selector: 'input#q', html: '<input id="q">' };

describe.each(dbKinds)('a served folder (%s)', (db) => {
  const h = useHarness({ db, org: 'served' });

  const submit = (sha: string, branch: string, extra: Record<string, unknown>, issues: unknown[] = []) =>
    h.request<CreatedScan & Problem>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: 'served-site',
        url: `${origin}/`,
        sha,
        branch,
        pages: [
          { url: `${origin}/`, issues: [] },
          { url: `${origin}/about.html`, issues },
        ],
        ...extra,
      },
    });
  const gate = async (sha: string) =>
    (
      await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
        key: h.key,
        body: { siteId: 'served-site', sha },
      })
    ).body;

  test('the deploy event keeps the folder; its reports scan the failing pages again by path with --serve', async () => {
    expect((await submit('1'.repeat(40), 'main', { served: { dir: 'site' } })).status).toBe(201);
    expect((await gate('1'.repeat(40))).served).toEqual({ dir: 'site', spa: false });

    const served = await submit('2'.repeat(40), 'feature', { served: { dir: 'out/my site', spa: true } }, [
      label,
    ]);
    expect(served.status).toBe(201);
    const event = await gate('2'.repeat(40));
    expect(event.served).toEqual({ dir: 'out/my site', spa: true });
    const command = "npx a11y-gate scan /about.html --serve 'out/my site' --spa --source-root .";
    expect(buildCheckRun(event, { detailsUrl: 'https://a11y.example/d/1' }).output.text).toContain(command);
    // The event as the API answers it later says the same.
    const again = await h.request<DeployEvent>('GET', `/api/v1/deploy/${event.id}`, { key: h.key });
    expect(again.body.served).toEqual({ dir: 'out/my site', spa: true });

    // A scan that says nothing of a folder: its pages by their addresses, as they were scanned.
    expect((await submit('3'.repeat(40), 'plain', {}, [label])).status).toBe(201);
    const plain = await gate('3'.repeat(40));
    expect(plain.served).toBeNull();
    expect(buildCheckRun(plain, { detailsUrl: 'https://a11y.example/d/2' }).output.text).toContain(
      `npx a11y-gate scan ${origin}/about.html --source-root .`,
    );
  });

  test('a folder name a shell or markdown would read otherwise is refused with its pointer; nothing is stored', async () => {
    const count = async () => Number((await h.db('scans').count({ n: '*' }))[0].n);
    const before = await count();
    for (const dir of ['-rf', 'a`b', 'a\nb', "it's", '$(id)', '', 'x'.repeat(1025), 7]) {
      const res = await submit('4'.repeat(40), 'bad', { served: { dir } });
      expect([dir, res.status]).toEqual([dir, 422]);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.errors?.map((e) => e.pointer)).toEqual(['#/served/dir']);
    }
    expect(await count()).toBe(before);
  });
});
