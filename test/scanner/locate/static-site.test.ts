import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultScanOptions, type ScanOptions } from '../../../scanner/options.js';
import type { ScannedPage } from '../../../scanner/page-scan.js';
import type { LocatedNode } from '../../../scanner/locate/locator.js';
import { scan } from '../../../scanner/scan.js';
import type * as Sarif from 'sarif';
import { findingsOf } from '../../../scanner/findings.js';
import { toSarif } from '../../../scanner/sarif.js';
import { submittedPages } from '../../../scanner/scan-body.js';
import type { CreatedScan, ScanDetail } from '../../helpers/api-types.js';
import { startHarness } from '../../helpers/harness.js';
import { CHROMIUM_PATH } from '../../helpers/axe-browser.js';
import { chromium, describeWith } from '../../helpers/requirements.js';

// Static pages served on loopback and scanned in Debian's Chromium; each finding's expected line is read from
// the fixture file by a plain text search for its element, not by the code under test.

const ROOT = fileURLToPath(new URL('../../fixtures/locate', import.meta.url));
const file = (rel: string) => fs.readFileSync(path.join(ROOT, rel));

/** URL path → fixture file: `/pages/…` as mapped, the rest at names unlike their files (found by content). */
const ROUTES: Record<string, string> = {
  '/welcome': 'static/site/landing.html',
  '/twin': 'static/dup/twin.html',
};

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const rel = p.startsWith('/pages/') ? `static/site/${p.slice('/pages/'.length)}` : ROUTES[p];
    if (!rel || !fs.existsSync(path.join(ROOT, rel))) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(file(rel));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** 1-based line and column of the one line holding `needle` (the test fails if several do). */
function lineOf(rel: string, needle: string, tag: string): { line: number; column: number } {
  const lines = file(rel).toString('utf8').split('\n');
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i] : []));
  expect(hits).toHaveLength(1);
  // The element starts at its tag's `<`, on this line or the one above (an attribute on a line of its own).
  const at = lines[hits[0]].indexOf(`<${tag}`) >= 0 ? hits[0] : hits[0] - 1;
  return { line: at + 1, column: lines[at].indexOf(`<${tag}`) + 1 };
}

function nodes(page: ScannedPage): Array<{ rule: string; html: string; source: LocatedNode['source'] }> {
  return [...page.axe.violations, ...page.axe.incomplete].flatMap((r) =>
    r.nodes.map((n: LocatedNode) => ({ rule: r.id, html: n.html, source: n.source })),
  );
}

function options(overrides: Partial<ScanOptions>): ScanOptions {
  return {
    ...defaultScanOptions(),
    chromePath: CHROMIUM_PATH,
    concurrency: 2,
    sourceRoot: ROOT,
    sourceMaps: [{ prefix: '/pages/', dir: 'static/site' }],
    ...overrides,
  };
}

describeWith(chromium, 'locating findings in static files', () => {
  let pages: Record<string, ScannedPage>;
  beforeAll(async () => {
    const urls = ['/pages/gallery.html', '/pages/scripted.html', '/welcome', '/twin'].map((p) => base + p);
    const run = await scan(options({ urls }));
    pages = Object.fromEntries(
      run.pages.map((p) => {
        if (!p.ok) throw new Error(`${p.url}: ${p.error}`);
        return [new URL(p.url).pathname, p];
      }),
    );
  }, 60_000);

  test('the same violation on several lines: each element at its own start tag (mapped URL prefix)', () => {
    const images = nodes(pages['/pages/gallery.html']).filter((n) => n.rule === 'image-alt');
    expect(images).toHaveLength(3);
    for (const [needle, img] of [
      ['harbour.jpg', images[0]],
      ['lighthouse.jpg', images[1]],
      ['dunes.jpg', images[2]],
    ] as const) {
      expect(img.html).toContain(needle);
      expect(img.source).toEqual({
        path: 'static/site/gallery.html',
        ...lineOf('static/site/gallery.html', needle, 'img'),
        method: 'static',
      });
    }
    const link = nodes(pages['/pages/gallery.html']).find((n) => n.rule === 'link-name');
    expect(link?.source).toEqual({
      path: 'static/site/gallery.html',
      ...lineOf('static/site/gallery.html', 'contact.html', 'a'),
      method: 'static',
    });
  });

  test('a page at a URL unlike its file name is found by its content', () => {
    const all = nodes(pages['/welcome']);
    const button = all.find((n) => n.rule === 'button-name');
    expect(button?.source).toEqual({
      path: 'static/site/landing.html',
      ...lineOf('static/site/landing.html', '<button></button>', 'button'),
      method: 'static',
    });
    const contrast = all.find((n) => n.rule === 'color-contrast');
    expect(contrast?.source?.line).toBe(lineOf('static/site/landing.html', 'Low contrast', 'p').line);
  });

  test('elements a script changed or added get no location; the untouched one keeps its line', () => {
    const images = nodes(pages['/pages/scripted.html']).filter((n) => n.rule === 'image-alt');
    const by = (s: string) => images.find((n) => n.html.includes(s));
    expect(images).toHaveLength(3);
    expect(by('kept.png')?.source).toEqual({
      path: 'static/site/scripted.html',
      ...lineOf('static/site/scripted.html', '<img src="/offers/kept.png"', 'img'),
      method: 'static',
    });
    expect(by('rewritten.png')?.source).toBeUndefined();
    expect(by('added.png')?.source).toBeUndefined();
  });

  test('a page whose content two files share gets no location (which one is a guess)', () => {
    const all = nodes(pages['/twin']);
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((n) => n.source === undefined)).toBe(true);
  });

  test('every location given is exactly right: none wrong, and the share located is as expected', () => {
    const all = Object.values(pages).flatMap(nodes);
    const located = all.filter((n) => n.source);
    // Checked against the files: the line holds the element's start tag with the markup axe reported.
    for (const n of located) {
      const text = file(n.source!.path).toString('utf8').split('\n');
      const tag = /^<([a-z0-9]+)/.exec(n.html)![1];
      expect(text[n.source!.line - 1].slice(n.source!.column! - 1)).toMatch(new RegExp(`^<${tag}\\b`));
    }
    console.log(`static fixtures: ${located.length} of ${all.length} findings located`);
    // Gallery 4, landing 2, scripted 1; the scripted images and both of the twin's findings stay unlocated.
    expect(located).toHaveLength(7);
    expect(all.filter((n) => !n.source).map((n) => `${n.rule} ${n.html.slice(0, 50)}`)).toEqual([
      'image-alt <img src="/offers/rewritten.png">',
      'image-alt <img src="/offers/added.png">',
      'image-alt <img src="/twin.png">',
      'page-has-heading-one <html lang="en"><head><meta charset="utf-8"><title',
    ]);
  });
});

describeWith(chromium, 'SARIF of located findings, as code scanning takes it', () => {
  test('only located findings are results, each with a relative path, a line and the service fingerprint', async () => {
    const run = await scan(options({ urls: [`${base}/pages/gallery.html`, `${base}/pages/scripted.html`] }));
    const findings = findingsOf(run.pages);
    const report = toSarif(findings, { toolVersion: run.engine.version });
    const log: Sarif.Log = JSON.parse(JSON.stringify(report.log)) as Sarif.Log;
    const sarifRun = log.runs[0];
    expect(log.version).toBe('2.1.0');
    const located = findings.filter((f) => f.source).length;
    expect(sarifRun.results).toHaveLength(located);
    expect(sarifRun.properties).toEqual({
      findings: findings.length,
      located,
      unlocated: findings.length - located,
    });
    expect(findings.length - located).toBe(2); // the scripted page's changed and added images

    const rules = sarifRun.tool.driver.rules ?? [];
    for (const r of rules) {
      expect(r.shortDescription?.text).toBeTruthy();
      expect(r.fullDescription?.text).toBeTruthy();
      expect(r.help?.text).toBeTruthy();
      expect(r.help?.markdown).toBeTruthy();
      expect(r.helpUri).toMatch(/^https:\/\/dequeuniversity\.com\//);
    }
    expect(rules.find((r) => r.id === 'image-alt')?.properties?.tags).toEqual(
      expect.arrayContaining(['WCAG 1.1.1', 'wcag111']),
    );
    for (const r of sarifRun.results ?? []) {
      const loc = r.locations?.[0]?.physicalLocation;
      // Code scanning's upload rules: a path relative to the repository (no scheme, not absolute), a line.
      expect(loc?.artifactLocation?.uri).toMatch(/^static\/site\/[a-z]+\.html$/);
      expect(loc?.region?.startLine).toBeGreaterThanOrEqual(1);
      expect(rules[r.ruleIndex!].id).toBe(r.ruleId);
      expect(['error', 'warning', 'note']).toContain(r.level);
    }
    const alt = (sarifRun.results ?? []).find((r) => r.ruleId === 'image-alt');
    expect(alt?.level).toBe('error'); // critical

    // The fingerprints are the service's: the same pages submitted to the API carry the same values.
    const h = await startHarness({ db: 'sqlite' });
    try {
      const key = await h.createKey({ name: 'ci', scopes: ['ingest', 'read'] });
      const created = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key,
        body: { url: `${base}/`, siteId: 'sarif', pages: submittedPages(run) },
      });
      expect(created.status).toBe(201);
      const stored = await h.request<ScanDetail>('GET', `/api/v1/scans/${created.body.id}`, { key });
      const byElement = new Map(stored.body.issues.map((i) => [`${i.page_url} ${i.selector}`, i]));
      for (const r of sarifRun.results ?? []) {
        const props = r.properties as { pageUrl: string; selector: string };
        const issue = byElement.get(`${props.pageUrl} ${props.selector}`);
        expect(r.partialFingerprints?.['a11yGate/v1']).toBe(issue?.fingerprint);
        // And the service kept the scanner's location.
        expect(issue?.source?.line).toBe(r.locations?.[0]?.physicalLocation?.region?.startLine);
      }
    } finally {
      await h.close();
    }
  }, 60_000);
});
