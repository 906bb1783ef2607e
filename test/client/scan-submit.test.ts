import crypto from 'node:crypto';
import { ApiClient } from '../../client/api-client.js';
import type { ScanRequest } from '../../client/wire-types.js';
import { batches, submitScan } from '../../client/scan-submit.js';
import type { ScanList } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';

// Against the real server: a large scan goes in parts (the service offers them), a small one in one request.
const h = useHarness({ db: 'sqlite' });
let key: string;
beforeAll(async () => {
  key = await h.createKey({ name: 'ci', scopes: ['ingest', 'read'] });
});

const scanOf = (pages: number, sha: string): ScanRequest => ({
  url: 'https://shop.example.com/',
  siteId: 'parts',
  sha,
  pages: Array.from({ length: pages }, (_, i) => ({
    url: `https://shop.example.com/p/${i}`,
    issues: [{ rule: 'image-alt', impact: 'critical', selector: `#img${i}` }],
  })),
});

test('batches keep the page order and stay under the size (a larger page goes alone)', () => {
  const pages = scanOf(5, 'a'.repeat(40)).pages;
  const size = Buffer.byteLength(JSON.stringify(pages[0]));
  expect(batches(pages, size * 2).map((b) => b.length)).toEqual([2, 2, 1]);
  expect(batches(pages, 1).flat()).toEqual(pages);
});

test('above the threshold the scan goes in parts and completes with every page; below it, one request', async () => {
  const client = new ApiClient({ baseUrl: h.url, apiKey: key, retryDelayMs: 5 });
  const keys: string[] = [];
  const log: string[] = [];
  const keyFor = (request: string, body: unknown) => {
    keys.push(request);
    return `${request}-${crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 20)}`;
  };
  const sha = 'b'.repeat(40);
  const res = await submitScan(client, scanOf(7, sha), keyFor, (l) => log.push(l), 400);
  expect(res.body.summary).toMatchObject({ pages: 7, issues: 7 });
  expect(keys[0]).toBe('scan-open');
  expect(keys.filter((k) => k.startsWith('scan-part-')).length).toBeGreaterThan(1);
  expect(keys.at(-1)).toBe('scan-complete');
  expect(log.at(-1)).toMatch(/part \d+ of \d+ sent/);
  const stored = await h.request<ScanList>('GET', `/api/v1/scans?siteId=parts&sha=${sha}`, { key });
  expect(stored.body.data).toHaveLength(1);

  keys.length = 0;
  const single = await submitScan(client, scanOf(2, 'c'.repeat(40)), keyFor, () => {});
  expect(keys).toEqual(['scan']);
  expect(single.body.summary.pages).toBe(2);
});
