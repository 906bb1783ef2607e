import { readFileSync } from 'node:fs';
import type { CreatedScan, VpatReport } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

// Real axe-core output (test/fixtures/axe): pages without any video, so video-caption (1.2.2) is among
// their `inapplicable` rules; color-contrast (1.4.3) passed on them.
const axeOf = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as {
    inapplicable: Array<{ id: string }>;
  };

describe.each(dbKinds)('Not Applicable suggested from inapplicable rules (%s)', (db) => {
  const h = useHarness({ db });
  let key: string;

  beforeAll(async () => {
    key = await h.createKey({ org: 'acme', scopes: ['ingest', 'read', 'manage'], name: 'bot' });
  });

  const scan = async (siteId: string, pages: unknown[]) => {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: { siteId, url: 'https://shop.test/', branch: 'main', pages },
    });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const generate = async (siteId: string) => {
    const res = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
      key,
      body: { siteId, product: { name: 'Shop', version: '1', description: 'The shop.' } },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const row = (r: VpatReport, id: string) => r.criteria.find((c) => c.id === id)!;

  test('each page’s inapplicable rules are stored: axe’s own list, a native page’s rules_inapplicable', async () => {
    const id = await scan('stored', [
      { url: '/', axe: axeOf('clean') },
      { url: '/legacy', issues: [], rules_inapplicable: ['video-caption', 'audio-caption', 'video-caption'] },
      { url: '/unsaid', issues: [] },
    ]);
    const rows = await h
      .db('scan_pages')
      .where({ scan_id: id })
      .orderBy('page_index')
      .select<Array<{ rules_inapplicable: string | null }>>('rules_inapplicable');
    expect(
      rows.map((r) =>
        r.rules_inapplicable === null ? null : (JSON.parse(r.rules_inapplicable) as string[]),
      ),
    ).toEqual([
      axeOf('clean')
        .inapplicable.map((r) => r.id)
        .sort(),
      ['audio-caption', 'video-caption'],
      null,
    ]);
  });

  test('a criterion whose rules had nothing to test on every page is suggested Not Applicable; a person still answers', async () => {
    await scan('no-video', [
      { url: '/', axe: axeOf('clean') },
      { url: '/account', axe: axeOf('nested') },
      { url: '/products', axe: axeOf('defects') },
    ]);
    const r = await generate('no-video');
    expect(row(r, '1.2.2')).toMatchObject({
      conformance: 'not-evaluated',
      basis: 'rules-passed',
      needs_review: true,
      suggestion: { conformance: 'not-applicable', rules: ['video-caption'], pages: 3 },
    });
    expect(row(r, '1.2.2').suggestion!.reason).toContain(
      'found nothing to test on any of the 3 scanned pages',
    );
    // color-contrast passed (it had text to test): nothing to suggest.
    expect(row(r, '1.4.3').suggestion).toBeUndefined();
    expect(r.summary.by_conformance['not-applicable']).toBe(
      r.criteria.filter((c) => c.conformance === 'not-applicable').length,
    );

    // The person's answer settles the row; the suggestion is gone with the wait.
    const next = await h.request<VpatReport>('POST', `/api/v1/vpat/${r.id}/review`, {
      key,
      body: {
        author: 'Grace Officer',
        decisions: [{ criterion: '1.2.2', conformance: 'not-applicable', remarks: 'The site has no video.' }],
      },
    });
    expect(row(next.body, '1.2.2')).toMatchObject({ conformance: 'not-applicable', needs_review: false });
    expect(row(next.body, '1.2.2').suggestion).toBeUndefined();
  });

  test('one page that does not say (a native page without rules_inapplicable): no suggestion', async () => {
    await scan('unsaid', [
      { url: '/', axe: axeOf('clean') },
      { url: '/legacy', issues: [] },
    ]);
    const r = await generate('unsaid');
    expect(row(r, '1.2.2').suggestion).toBeUndefined();
  });
});
