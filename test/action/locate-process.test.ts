import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHarness, type Harness } from '../helpers/harness.js';
import { CHROMIUM_PATH } from '../helpers/axe-browser.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import { parseOutputFile, runNode } from '../scanner/process.js';

// The committed bundle (dist/index.js) scanning the static fixture site in Debian's Chromium with a source
// root, against the real API server: each located new issue is annotated on its file and line. The expected
// lines come from a plain text search of the fixture files, not from the code under test.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = path.join(repoRoot, 'dist', 'index.js');
const ROOT = path.join(repoRoot, 'test', 'fixtures', 'locate');

/** 1-based line of the `<tag` holding `needle`: on the needle's line, or the one above (an attribute of its own). */
function lineOf(rel: string, needle: string, tag: string): number {
  const lines = fs.readFileSync(path.join(ROOT, rel), 'utf8').split('\n');
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i] : []));
  expect(hits).toHaveLength(1);
  return (lines[hits[0]].includes(`<${tag}`) ? hits[0] : hits[0] - 1) + 1;
}

let h: Harness;
let server: Server;
let base: string;
let key: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    const file = path.join(ROOT, 'static', 'site', p.replace(/^\/pages\//, ''));
    if (!p.startsWith('/pages/') || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h = await startHarness({ db: 'sqlite' });
  key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate', 'read'] });
});
afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describeWith(chromium, 'the bundled Action locates what it scanned', () => {
  test('new issues of a static page are annotated at their file and line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-locate-step-'));
    const output = path.join(dir, 'output');
    const summary = path.join(dir, 'summary.md');
    fs.writeFileSync(output, '');
    fs.writeFileSync(summary, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      CHROME_PATH: CHROMIUM_PATH,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: ROOT,
      GITHUB_REPOSITORY: 'acme/shop',
      // Not the base branch: with no baseline every issue is new.
      GITHUB_REF: 'refs/heads/feature',
      A11Y_GATE_RETRY_DELAY_MS: '5',
      'INPUT_API-URL': h.url,
      'INPUT_API-KEY': key,
      'INPUT_SITE-ID': 'static-site',
      INPUT_SHA: 'feedfeedfeedfeedfeedfeedfeedfeedfeedfeed',
      INPUT_URLS: `${base}/pages/gallery.html`,
      'INPUT_SOURCE-MAP': '/pages/ => static/site',
      'INPUT_FAIL-ON-CRITICAL': 'false',
    };
    const run = await runNode(bundle, [], env, dir);
    const outputs = parseOutputFile(fs.readFileSync(output, 'utf8'));
    fs.rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    const annotations = [...run.stdout.matchAll(/^::(error|warning) ([^:]*)::/gm)].map((m) =>
      Object.fromEntries(
        m[2].split(',').map((kv) => {
          const [name, value] = kv.split('=');
          return [name, value.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%')];
        }),
      ),
    );
    const images = annotations.filter((a) => a.title?.startsWith('a11y-gate: image-alt'));
    expect(images.map((a) => [a.file, Number(a.line)])).toEqual(
      ['harbour.jpg', 'lighthouse.jpg', 'dunes.jpg'].map((img) => [
        'static/site/gallery.html',
        lineOf('static/site/gallery.html', img, 'img'),
      ]),
    );
    // Every annotation names a line of its file that holds an element's start tag: none is invented.
    for (const a of annotations) {
      const text = fs.readFileSync(path.join(ROOT, a.file), 'utf8').split('\n');
      expect(text[Number(a.line) - 1].slice(Number(a.col) - 1)).toMatch(/^<[a-z]/);
    }
    expect(Number(outputs['new-issues'])).toBeGreaterThanOrEqual(annotations.length);
  }, 120_000);
});
