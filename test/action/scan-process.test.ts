import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScanDetail, ScanList } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import { parseOutputFile, runNode } from '../scanner/process.js';
import { startSite, type Site } from '../scanner/site.js';
import { actionJob } from '../helpers/action-job.js';

/** The parts of the SARIF report (scanner/sarif.ts) the test reads. */
interface SarifReport {
  version: string;
  runs: Array<{ results: unknown[]; properties: { findings: number; located: number; unlocated: number } }>;
}

// The committed bundle (dist/index.js) scanning real pages in Debian's Chromium, as a runner would run it,
// against the real API server on loopback.
const bundle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'index.js');

let h: Harness;
let site: Site;
let key: string;
beforeAll(async () => {
  [h, site] = await Promise.all([startHarness({ db: 'sqlite' }), startSite()]);
  key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate', 'read'] });
});
afterAll(async () => {
  await Promise.all([h?.close(), site?.close()]);
});

async function step(inputs: Record<string, string>) {
  const { dir, files, env } = actionJob(
    'a11y-scan-step-',
    { GITHUB_REF: 'refs/heads/main', A11Y_GATE_RETRY_DELAY_MS: '5' },
    { 'api-url': h.url, 'api-key': key, 'site-id': 'scanned', ...inputs },
  );
  const result = await runNode(bundle, [], env, dir);
  return {
    ...result,
    dir,
    outputs: parseOutputFile(fs.readFileSync(files.output, 'utf8')),
    summary: fs.readFileSync(files.summary, 'utf8'),
  };
}

describeWith(chromium, 'the bundled Action scans pages itself', () => {
  test('crawl, submit, gate with the sha: results-dir, SARIF, summary and a failed page reported', async () => {
    const sha = 'abcabcabcabcabcabcabcabcabcabcabcabcabca';
    const s = await step({
      sha,
      urls: `${site.url}/c\n${site.url}/missing`,
      crawl: 'true',
      'max-pages': '4',
      exclude: '/admin/**',
      'results-dir': 'a11y-results',
      sarif: 'a11y.sarif',
      'fail-on-critical': 'false',
      concurrency: '2',
    });
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
    expect(s.outputs.passed).toBe('true');
    expect(s.stdout).toMatch(
      new RegExp(
        `^::warning title=a11y-gate%3A page not scanned::${site.url}/missing was not scanned: HTTP 404`,
        'm',
      ),
    );

    const event = await h.request<DeployEvent>('GET', `/api/v1/deploy/${s.outputs['deploy-id']}`, { key });
    expect(event.body).toMatchObject({ siteId: 'scanned', sha, scan_id: s.outputs['scan-id'] });
    const scan = await h.request<ScanDetail>('GET', `/api/v1/scans/${s.outputs['scan-id']}`, { key });
    // /c, then what it links to (/d, /b; /admin excluded), cut at max-pages 4 with /missing among them.
    expect(scan.body.summary.pages).toBe(3);
    expect(scan.body.engine).toEqual({ name: 'axe-core', version: expect.stringMatching(/^4\./) as unknown });

    const written = fs.readdirSync(path.join(s.dir, 'a11y-results')).sort();
    expect(written).toEqual(['001-c.json', '002-missing.failed.json', '003-d.json', '004-b.json']);
    const sarif = JSON.parse(fs.readFileSync(path.join(s.dir, 'a11y.sarif'), 'utf8')) as SarifReport;
    expect(sarif.version).toBe('2.1.0');
    // Pages built in memory are no file of the repository: their findings are counted, not results.
    expect(sarif.runs[0].results).toEqual([]);
    expect(sarif.runs[0].properties.unlocated).toBeGreaterThan(0);
    expect(sarif.runs[0].properties.located).toBe(0);
    expect(s.summary).toMatch(/from 3 of 4 pages scanned in [\d.]+ s\./);
    expect(s.summary).toContain('**Pages not scanned**');
  }, 120_000);

  test('a page that lands on login-url fails the step before any gate', async () => {
    const sha = 'defdefdefdefdefdefdefdefdefdefdefdefdefd';
    const s = await step({ sha, urls: `${site.url}/private`, 'login-url': '/login*' });
    expect(s.code).toBe(1);
    expect(s.outputs.passed).toBe('false');
    expect(s.stdout).toMatch(/^::error::1 of 1 page was redirected to the login page/m);
    const events = await h.request<ScanList>('GET', `/api/v1/scans?siteId=scanned&sha=${sha}`, { key });
    expect(events.body.data).toHaveLength(0);
  }, 60_000);
});
