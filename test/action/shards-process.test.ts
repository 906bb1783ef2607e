import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeployEvent, ScanDetail, ScanList } from '../helpers/api-types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import { scanContents, startShardedSite, type ShardedSite } from '../helpers/sharded-site.js';
import { parseOutputFile, runNode } from '../scanner/process.js';
import { actionJob } from '../helpers/action-job.js';

// The committed bundle (dist/index.js) as the jobs of a `matrix: shard: [1, 2, 3]` run start it: one process
// per job, sharing the run id, against the real API server on loopback.
const bundle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'index.js');
// The CLI's test scans the 300-page sitemap; the bundle's jobs are the same split and the same calls, so a
// smaller sitemap keeps CI's time for what only this test shows (the Action's inputs, outputs and summary).
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

async function job(inputs: Record<string, string>, run: { id: string; attempt: string }) {
  const { dir, files, env } = actionJob(
    'a11y-shard-job-',
    {
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: run.id,
      GITHUB_RUN_ATTEMPT: run.attempt,
      A11Y_GATE_RETRY_DELAY_MS: '5',
    },
    { 'api-url': h.url, 'api-key': key, concurrency: '2', 'fail-on-critical': 'false', ...inputs },
  );
  const result = await runNode(bundle, [], env, dir);
  return {
    ...result,
    outputs: parseOutputFile(fs.readFileSync(files.output, 'utf8')),
    summary: fs.readFileSync(files.summary, 'utf8'),
  };
}

const scanOf = async (siteId: string, sha: string) => {
  const list = await h.request<ScanList>('GET', `/api/v1/scans?siteId=${siteId}&sha=${sha}`, { key });
  expect(list.body.data).toHaveLength(1);
  return (await h.request<ScanDetail>('GET', `/api/v1/scans/${list.body.data[0].id}`, { key })).body;
};

/** A scan's element screenshots by page, rule and element, each tied to an issue on its own page. */
async function pictures(scanId: string) {
  const rows = await h
    .db('scan_screenshots as s')
    .join('scan_issues as i', 'i.id', 's.issue_id')
    .join('scan_pages as p', (j) => j.on('p.scan_id', 's.scan_id').andOn('p.page_index', 'i.page_index'))
    .where('s.scan_id', scanId)
    .select<Array<{ url: string; rule: string; selector: string }>>('p.url', 's.rule', 's.selector');
  return rows.map((r) => `${r.url}|${r.rule}|${r.selector}`).sort();
}

describeWith(chromium, 'the bundled Action in a sharded matrix', () => {
  test('three jobs with `shard` fill one scan equal to the unsharded one; the missing shard is named; a re-run changes nothing', async () => {
    const whole = await job(
      { 'site-id': 'whole', sha: 'a'.repeat(40), sitemap: site.sitemap },
      { id: '1', attempt: '1' },
    );
    expect(whole.code).toBe(0);

    const sha = 'c'.repeat(40);
    const run = { id: '777', attempt: '1' };
    const shard = (n: number, attempt = run) =>
      job({ 'site-id': 'matrix', sha, sitemap: site.sitemap, shard: `${n}/3` }, attempt);
    const [one, two] = await Promise.all([shard(1), shard(2)]);
    for (const j of [one, two]) {
      expect(j.code).toBe(0);
      expect(j.outputs.passed).toBe('');
      expect(j.outputs['scan-id']).toMatch(/^scn_/);
      expect(j.summary).toContain('the job that completes the scan asks the gate');
    }
    expect(one.outputs['scan-id']).toBe(two.outputs['scan-id']);
    // The final job while shard 3 has not reported: it fails and names the shard; the scan stays open.
    const early = await job({ 'site-id': 'matrix', sha, mode: 'complete' }, run);
    expect(early.code).toBe(1);
    expect(early.stdout).toContain('::error::The scan stays open');
    expect(early.stdout).toContain('shard 3 of 3 has not reported');
    const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
      key,
      body: { siteId: 'matrix', sha },
    });
    expect(gate.body.reasons[0].message).toContain('shard 3 of 3 has not reported');

    const three = await shard(3);
    expect(three.code).toBe(0);
    expect(three.outputs.passed).toBe('true');
    expect(three.outputs['scan-id']).toBe(one.outputs['scan-id']);
    const deployId = three.outputs['deploy-id'];
    expect(deployId).toMatch(/^dep_/);
    const scan = await scanOf('matrix', sha);
    expect(scan.pages).toHaveLength(PAGES);
    const wholeScan = await scanOf('whole', 'a'.repeat(40));
    expect(scanContents(scan)).toEqual(scanContents(wholeScan));
    // Every job sent its pages' element screenshots: the same pictures as the unsharded scan's.
    expect((await pictures(wholeScan.id)).length).toBeGreaterThan(0);
    expect(await pictures(scan.id)).toEqual(await pictures(wholeScan.id));

    // "Re-run failed jobs": shard 2 in attempt 2 of the same run finds the scan complete; same decision.
    const rerun = await shard(2, { id: run.id, attempt: '2' });
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain("was already complete: this shard's pages were not sent again");
    expect(rerun.outputs['deploy-id']).toBe(deployId);
    expect(scanContents(await scanOf('matrix', sha))).toEqual(scanContents(scan));
    // The final job, once every shard has reported: the same scan and the same decision.
    const final = await job({ 'site-id': 'matrix', sha, mode: 'complete' }, run);
    expect(final.code).toBe(0);
    expect(final.outputs['deploy-id']).toBe(deployId);
  }, 1_200_000);
});
