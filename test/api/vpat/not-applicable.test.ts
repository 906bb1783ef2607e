import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv, type SchemaObject } from 'ajv';
import yaml from 'js-yaml';
import { closeBrowser, haveChromium, runAxe } from '../../helpers/axe-browser.js';
import type { CreatedScan, VpatReport } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

// Real axe-core output (test/fixtures/axe): pages without any video, so video-caption (1.2.2) is among
// their `inapplicable` rules; color-contrast (1.4.3) passed on them.
const axeOf = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/axe/${name}.json`, import.meta.url), 'utf8')) as {
    inapplicable: Array<{ id: string }>;
  };

const validateOpenAcr = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(
    readFileSync(new URL('../../fixtures/openacr/openacr-0.1.0.json', import.meta.url), 'utf8'),
  ) as SchemaObject,
);
const tmp = mkdtempSync(path.join(tmpdir(), 'a11y-suggested-'));
afterAll(async () => {
  rmSync(tmp, { recursive: true, force: true });
  await closeBrowser();
});

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

  test('every download of the draft shows each suggestion in its row; the answered version shows none', async () => {
    await scan('downloads', [
      { url: '/', axe: axeOf('clean') },
      { url: '/account', axe: axeOf('nested') },
    ]);
    const r = await generate('downloads');
    const suggested = r.criteria.filter((c) => c.suggestion).map((c) => c.id);
    expect(suggested).toContain('1.2.2');
    const reason = row(r, '1.2.2').suggestion!.reason;
    expect(reason).toMatch(/^Suggested: Not Applicable\. /);
    const downloads = async (id: string) => {
      const get = (format: string) =>
        fetch(`${h.url}/api/v1/vpat/${id}?format=${format}`, { headers: { authorization: `Bearer ${key}` } });
      const file = path.join(tmp, `${db}-${id}.pdf`);
      writeFileSync(file, Buffer.from(await (await get('pdf')).arrayBuffer()));
      return {
        html: await (await get('html')).text(),
        md: await (await get('md')).text(),
        openacr: await (await get('openacr')).text(),
        pdf: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '),
      };
    };
    const draft = await downloads(r.id);
    // As many suggestions in each format as rows carry one: a row's remarks, never another's (YAML folds
    // long lines, so whitespace is compared as one space).
    for (const [format, text] of Object.entries(draft)) {
      expect([format, text.replace(/\s+/g, ' ').match(/Suggested: Not Applicable\./g)?.length]).toEqual([
        format,
        suggested.length,
      ]);
    }
    const htmlRow = draft.html.slice(draft.html.indexOf('<tr id="c-1.2.2"'));
    expect(htmlRow.slice(0, htmlRow.indexOf('</tr>'))).toContain(
      '<p class="suggestion"><strong>Suggested: Not Applicable.</strong>',
    );
    // The page a customer may open: still free of axe-core violations (Chromium) with the suggestions in it.
    if (haveChromium) expect((await runAxe(draft.html)).violations.map((v) => v.id)).toEqual([]);
    expect(draft.md.split('\n').find((l) => l.startsWith('| 1.2.2 '))).toContain('| Not Evaluated |');
    const acr = yaml.load(draft.openacr) as {
      chapters: Record<
        string,
        {
          criteria: Array<{
            num: string;
            components: Array<{ adherence: { level: string; notes: string } }>;
          }>;
        }
      >;
    };
    expect(validateOpenAcr(acr)).toBe(true);
    const adherence = acr.chapters.success_criteria_level_a.criteria.find((c) => c.num === '1.2.2')!
      .components[0].adherence;
    expect(adherence.level).toBe('not-evaluated');
    expect(adherence.notes.endsWith(reason)).toBe(true);
    expect(draft.pdf.replace(/-/g, '')).toContain(reason.replace(/\s+/g, ' ').replace(/-/g, ''));

    // A person answers every suggested row: the next version's downloads show no suggestion.
    const next = await h.request<VpatReport>('POST', `/api/v1/vpat/${r.id}/review`, {
      key,
      body: {
        author: 'Grace Officer',
        decisions: suggested.map((criterion) => ({
          criterion,
          conformance: 'not-applicable',
          remarks: 'Not on this site.',
        })),
      },
    });
    expect(next.status).toBe(201);
    for (const [format, text] of Object.entries(await downloads(next.body.id))) {
      expect([format, text.includes('Suggested')]).toEqual([format, false]);
    }
  });
});
