import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import type { ScanList } from '../helpers/api-types.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { startShardedSite, type ShardedSite } from '../helpers/sharded-site.js';
import { runNode } from '../scanner/process.js';

// Element screenshots of a sharded run: the bundled CLI, one process per shard (one of them run twice),
// sends each shard's pictures into the one scan; the scan ends up with the pictures the unsharded scan has.
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli', 'index.js');

let h: Harness;
let site: ShardedSite;
let key: string;
beforeAll(async () => {
  [h, site] = await Promise.all([startHarness({ db: 'sqlite' }), startShardedSite(12)]);
  key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate', 'read'] });
});
afterAll(async () => {
  await Promise.all([h?.close(), site?.close()]);
});

const env = {
  PATH: process.env.PATH ?? '',
  CHROME_PATH: CHROMIUM_PATH,
  A11Y_GATE_RETRY_DELAY_MS: '5',
  A11Y_GATE_API_KEY: '',
  GITHUB_RUN_ID: '77',
};

const scanIdOf = async (siteId: string) => {
  const list = await h.request<ScanList>('GET', `/api/v1/scans?siteId=${siteId}`, { key });
  expect(list.body.data).toHaveLength(1);
  return list.body.data[0].id;
};

/** The scan's pictures as the database holds them, each with the page and issue it is tied to. */
async function pictures(scanId: string) {
  const rows = await h
    .db('scan_screenshots as s')
    .join('scan_issues as i', 'i.id', 's.issue_id')
    .join('scan_pages as p', (j) => j.on('p.scan_id', 's.scan_id').andOn('p.page_index', 's.page_index'))
    .where('s.scan_id', scanId)
    .select<
      Array<{
        url: string;
        rule: string;
        selector: string;
        width: number;
        height: number;
        fingerprint: string;
        issue_fingerprint: string;
        issue_page: number;
        page_index: number;
        issue_scan: string;
      }>
    >(
      'p.url',
      's.rule',
      's.selector',
      's.width',
      's.height',
      's.fingerprint',
      'i.fingerprint as issue_fingerprint',
      'i.page_index as issue_page',
      's.page_index',
      'i.scan_id as issue_scan',
    );
  for (const r of rows) {
    expect(r.issue_scan).toBe(scanId);
    expect(r.issue_page).toBe(r.page_index);
    expect(r.issue_fingerprint).toBe(r.fingerprint);
  }
  return rows.map((r) => `${r.url}|${r.rule}|${r.selector}|${r.width}x${r.height}`).sort();
}

describeWith(chromium, 'a11y-gate scan --shard with element screenshots', () => {
  test("every shard sends its pages' pictures to the one scan; a re-run shard replaces its own", async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-shard-shots-'));
    const common = ['--sitemap', site.sitemap, '--api-url', h.url, '--api-key', key, '--concurrency', '2'];
    const whole = await runNode(cli, ['scan', ...common, '--site-id', 'whole'], env, cwd);
    expect(whole.code).toBe(0);
    const expected = await pictures(await scanIdOf('whole'));
    // The site's empty buttons, unlabelled inputs and low-contrast text are pictured.
    expect(expected.length).toBeGreaterThan(5);

    const shard = (n: number) =>
      runNode(
        cli,
        ['scan', ...common, '--site-id', 'sharded', '--sha', 'e'.repeat(40), '--shard', `${n}/2`],
        env,
        cwd,
      );
    const first = await shard(1);
    expect(first.code).toBe(0);
    // Open: not listed yet; its pictures are stored already, tied to shard 1's pages.
    const listed = await h.request<ScanList>('GET', '/api/v1/scans?siteId=sharded', { key });
    expect(listed.body.data).toHaveLength(0);
    const open = await h.db('scans').where({ site_id: 'sharded' }).first<{ id: string; status: string }>();
    expect(open?.status).toBe('open');
    const shardOne = await pictures(open.id);
    expect(shardOne.length).toBeGreaterThan(0);
    expect(`${first.stdout}${first.stderr}`).toContain(`element screenshots ${shardOne.length} stored`);

    // Shard 1 again (a new attempt): its pages and pictures replaced, not doubled.
    const again = await shard(1);
    expect(again.code).toBe(0);
    expect(await pictures(open.id)).toEqual(shardOne);

    const second = await shard(2);
    expect(second.code).toBe(0);
    expect(`${second.stdout}${second.stderr}`).toMatch(
      /complete: shard 2 was the last to report \(12 pages\)/,
    );
    expect(await pictures(await scanIdOf('sharded'))).toEqual(expected);
  }, 300_000);
});
