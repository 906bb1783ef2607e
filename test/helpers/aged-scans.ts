import type { CreatedScan } from './api-types.js';
import type { Harness } from './harness.js';

/** `days` days before now, as the service stores times. */
export const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** A commit sha made of one character repeated (`'a'` → `aaaa…`, 40 of them). */
export const shaOf = (c: string) => c.repeat(40);

/**
 * Submits a scan of `siteId` on `branch` at commit `shaOf(c)`, then dates it `ageDays` back: what
 * retention looks at is when a scan was stored. Returns its id.
 */
export async function agedScan(
  h: Harness,
  key: string,
  scan: {
    siteId: string;
    branch: string;
    c: string;
    ageDays: number;
    pages: unknown[];
    scope?: 'full' | 'partial';
  },
): Promise<string> {
  const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
    key,
    body: {
      url: `https://${scan.siteId}.example.com/`,
      siteId: scan.siteId,
      sha: shaOf(scan.c),
      branch: scan.branch,
      ...(scan.scope ? { scope: scan.scope } : {}),
      pages: scan.pages,
    },
  });
  if (res.status !== 201) throw new Error(`agedScan: ${res.status} ${res.text}`);
  await h
    .db('scans')
    .where({ id: res.body.id })
    .update({ created_at: daysAgo(scan.ageDays) });
  return res.body.id;
}
