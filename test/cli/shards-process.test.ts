import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import type { DeployEvent, ScanDetail, ScanList } from '../helpers/api-types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { scanContents, startShardedSite, type ShardedSite } from '../helpers/sharded-site.js';
import { runNode } from '../scanner/process.js';

// The bundled CLI as the jobs of a parallel CI run start it: one process per shard, then the same shard again.
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'index.js');

// Enough pages for every shard to hold many and the pages' order to matter; the scale is the benchmark's.
const PAGES = 60;
let h: Harness;
let site: ShardedSite;
let key: string;
beforeAll(async () => {
  [h, site] = await Promise.all([startHarness({ db: 'sqlite' }), startShardedSite(PAGES)]);
  key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate', 'read'] });
});
afterAll(async () => {
  await Promise.all([h?.close(), site?.close()]);
});

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '',
  CHROME_PATH: CHROMIUM_PATH,
  A11Y_GATE_RETRY_DELAY_MS: '5',
  A11Y_GATE_API_KEY: '',
  ...extra,
});
const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-shards-'));

const scanOf = async (siteId: string, sha: string) => {
  const list = await h.request<ScanList>('GET', `/api/v1/scans?siteId=${siteId}&sha=${sha}`, { key });
  expect(list.body.data).toHaveLength(1);
  return (await h.request<ScanDetail>('GET', `/api/v1/scans/${list.body.data[0].id}`, { key })).body;
};

test('usage: a crawl cannot be sharded, a shard is I/N, and without a CI run id the group key is asked for', async () => {
  const cwd = dir();
  const crawl = await runNode(
    cli,
    ['scan', 'https://a.test/', '--crawl', '10', '--shard', '1/2'],
    env(),
    cwd,
  );
  expect(crawl.code).toBe(2);
  expect(crawl.stderr).toContain('--shard cannot split a crawl');
  const bad = await runNode(cli, ['scan', 'https://a.test/', '--shard', '3/2'], env(), cwd);
  expect(bad.stderr).toContain('--shard must name a shard from 1 to 2, got 3');
  const noGroup = await runNode(
    cli,
    ['scan', 'https://a.test/', '--shard', '1/2', '--api-url', h.url, '--api-key', key],
    env(),
    cwd,
  );
  expect(noGroup.code).toBe(2);
  expect(noGroup.stderr).toContain('give --scan-group');
});

describeWith(chromium, 'a11y-gate scan --shard', () => {
  test(`a ${PAGES}-page sitemap as 3 shards by 3 processes gives one scan equal to the unsharded one; a re-run changes nothing`, async () => {
    const cwd = dir();
    const common = ['--sitemap', site.sitemap, '--api-url', h.url, '--api-key', key, '--concurrency', '2'];
    const whole = await runNode(
      cli,
      ['scan', ...common, '--site-id', 'whole', '--sha', 'a'.repeat(40)],
      env(),
      cwd,
    );
    expect(whole.code).toBe(0);

    const sha = 'b'.repeat(40);
    // The group key comes from the sha and the CI run id, as every job of the run sees them.
    const ci = env({ GITHUB_RUN_ID: '4242' });
    const shard = (n: number) =>
      runNode(
        cli,
        [
          'scan',
          ...common,
          '--site-id',
          'sharded',
          '--sha',
          sha,
          '--branch',
          'main',
          '--gate',
          '--shard',
          `${n}/3`,
        ],
        ci,
        cwd,
      );
    const [one, two] = await Promise.all([shard(1), shard(2)]);
    for (const job of [one, two]) {
      expect(job.code).toBe(0);
      expect(job.stderr).toContain(`of the ${PAGES} pages listed`);
      expect(job.stdout).toMatch(/Shard [12] of 3 sent to scan scn_\S+ \(group bbbbbbbbbbbb-run-4242\)/);
      expect(job.stdout).not.toMatch(/^Gate /m);
    }
    expect(`${one.stdout}${two.stdout}`).toContain('shard 3 of 3 has not reported yet');
    // Shard 3 missing: the scan stays open, and the gate says which shard it waits for.
    const waiting = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key,
      body: { siteId: 'sharded', sha },
    });
    expect(waiting.body.scan_id).toBeNull();
    expect(waiting.body.reasons[0].message).toContain('shard 3 of 3 has not reported');
    const early = await runNode(
      cli,
      ['complete', '--api-url', h.url, '--api-key', key, '--site-id', 'sharded', '--sha', sha, '--gate'],
      ci,
      cwd,
    );
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('The scan stays open');
    expect(early.stderr).toContain('shard 3 of 3 has not reported');

    const three = await shard(3);
    expect(three.stderr).toContain(`complete: shard 3 was the last to report (${PAGES} pages)`);
    expect(three.stdout).toMatch(/^Gate passed: baseline recorded\./m);
    expect(three.code).toBe(0);
    const sharded = await scanOf('sharded', sha);
    expect(sharded.pages).toHaveLength(PAGES);
    expect(scanContents(sharded)).toEqual(scanContents(await scanOf('whole', 'a'.repeat(40))));
    const deploys = await h.db('deploys').where({ site_id: 'sharded' }).select('id');

    // Shard 2 run again (a re-run keeps the run id): the scan and the gate's decision stay as they are.
    const again = await shard(2);
    expect(again.stderr).toContain("was already complete: this shard's pages were not sent again");
    expect(again.stdout).toMatch(/^Gate passed: baseline recorded\./m);
    expect(again.code).toBe(0);
    expect(scanContents(await scanOf('sharded', sha))).toEqual(scanContents(sharded));
    expect(await h.db('deploys').where({ site_id: 'sharded' }).select('id')).toEqual(deploys);
    // The final job of the run finds the scan complete and gets the same decision.
    const final = await runNode(
      cli,
      ['complete', '--api-url', h.url, '--api-key', key, '--site-id', 'sharded', '--sha', sha, '--gate'],
      ci,
      cwd,
    );
    expect(final.code).toBe(0);
    expect(final.stderr).toContain('was already complete');
    expect(await h.db('deploys').where({ site_id: 'sharded' }).select('id')).toEqual(deploys);
  }, 900_000);
});
