import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultScanOptions } from '../../../scanner/options.js';
import type { LocatedNode } from '../../../scanner/locate/locator.js';
import { scan } from '../../../scanner/scan.js';
import { CHROMIUM_PATH } from '../../helpers/axe-browser.js';
import { chromium, describeWith } from '../../helpers/requirements.js';
import { runNode } from '../process.js';
import { startVite, type DevServer } from './vite-app.js';

// Two apps in Vite's dev mode, each with a build plugin that writes source attributes: React 19 with
// code-inspector-plugin, Vue 3 with vite-plugin-vue-inspector 6. The expected lines come from a text search
// of the fixture sources, not from the plugins or the code under test. The source root is the repository's.

const REPO = fileURLToPath(new URL('../../..', import.meta.url));
const APPS = 'test/fixtures/locate';

interface Found {
  rule: string;
  html: string;
  source: LocatedNode['source'];
}

/** Repository path and 1-based line and column of the one line holding `needle`. */
function at(rel: string, needle: string) {
  const lines = fs.readFileSync(path.join(REPO, rel), 'utf8').split('\n');
  const hits = lines.flatMap((l, i) => (l.includes(needle) ? [i] : []));
  expect(hits).toHaveLength(1);
  return { path: rel, line: hits[0] + 1, column: lines[hits[0]].indexOf(needle) + 1 };
}

async function findingsOf(app: string): Promise<Found[]> {
  let server: DevServer | null = null;
  try {
    server = await startVite(path.join(REPO, APPS, app));
    const run = await scan({
      ...defaultScanOptions(),
      urls: [server.url],
      chromePath: CHROMIUM_PATH,
      concurrency: 1,
      waitFor: 'main h1',
      sourceRoot: REPO,
    });
    const page = run.pages[0];
    if (!page.ok) throw new Error(page.error);
    return [...page.axe.violations, ...page.axe.incomplete].flatMap((r) =>
      r.nodes.map((n: LocatedNode) => ({ rule: r.id, html: n.html, source: n.source })),
    );
  } finally {
    await server?.close();
  }
}

/** Every located finding points at a start tag: the element's own, or (a component's root) the component's use. */
function checkEveryLocation(found: Found[]): void {
  for (const f of found.filter((x) => x.source)) {
    const line = fs.readFileSync(path.join(REPO, f.source!.path), 'utf8').split('\n')[f.source!.line - 1];
    const tag = /^<([a-z0-9-]+)/.exec(f.html)![1];
    expect(line.slice(f.source!.column! - 1)).toMatch(new RegExp(`^<(${tag}\\b|[A-Z])`));
  }
}

function share(name: string, found: Found[]): void {
  const located = found.filter((f) => f.source).length;
  console.log(`${name}: ${located} of ${found.length} findings located`);
}

describeWith(chromium, 'locating findings in Vite dev apps', () => {
  test('React 19 + code-inspector-plugin: each known violation at its line', async () => {
    const found = await findingsOf('react-app');
    const one = (rule: string, needle: string) => {
      const hits = found.filter((f) => f.rule === rule && f.html.includes(needle));
      expect(hits).toHaveLength(1);
      return hits[0].source;
    };
    const app = `${APPS}/react-app/src/App.jsx`;
    const card = `${APPS}/react-app/src/ProductCard.jsx`;
    const attr = (loc: ReturnType<typeof at>) => ({ ...loc, method: 'attribute' });
    expect(one('image-alt', 'hero.png')).toEqual(attr(at(app, '<img src="/hero.png"')));
    expect(one('image-alt', 'lamp.png')).toEqual(attr(at(card, '<img src={image}')));
    expect(one('image-alt', 'chair.png')).toEqual(attr(at(card, '<img src={image}')));
    expect(one('link-name', 'href="/cart"')).toEqual(attr(at(app, '<a href="/cart">')));
    const buttons = found.filter((f) => f.rule === 'button-name');
    expect(buttons.map((b) => b.source)).toEqual([
      attr(at(card, '<button type="button">')),
      attr(at(card, '<button type="button">')),
    ]);
    checkEveryLocation(found);
    share('React dev app', found);
  }, 60_000);

  test('Vue 3 + vite-plugin-vue-inspector: each known violation at its line', async () => {
    const found = await findingsOf('vue-app');
    const app = `${APPS}/vue-app/src/App.vue`;
    const item = `${APPS}/vue-app/src/NewsItem.vue`;
    const attr = (loc: ReturnType<typeof at>) => ({ ...loc, method: 'attribute' });
    const sources = (rule: string) => found.filter((f) => f.rule === rule).map((f) => f.source);
    expect(sources('image-alt')).toEqual([
      attr(at(app, '<img :src="bannerUrl"')),
      attr(at(item, '<img :src="image"')),
      attr(at(item, '<img :src="image"')),
    ]);
    expect(sources('link-name')).toEqual([
      attr(at(item, '<a href="/more">')),
      attr(at(item, '<a href="/more">')),
    ]);
    expect(sources('label')).toEqual([attr(at(app, '<input type="search"'))]);
    checkEveryLocation(found);
    share('Vue dev app', found);
  }, 60_000);

  test('the bundled CLI reports the same lines in its SARIF (Vue 3 app)', async () => {
    const server = await startVite(path.join(REPO, APPS, 'vue-app'));
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-cli-vue-'));
    try {
      const cli = path.join(REPO, 'dist', 'cli', 'index.js');
      const args = [
        'scan',
        server.url,
        '--wait-for',
        'main h1',
        '--source-root',
        REPO,
        '--sarif',
        'out.sarif',
      ];
      const run = await runNode(cli, args, { PATH: process.env.PATH ?? '', CHROME_PATH: CHROMIUM_PATH }, cwd);
      // The app has violations and there is neither a service nor a baseline file: the local gate fails
      // (exit 1), as pa11y-ci does, and the SARIF is written all the same.
      expect(run.code).toBe(1);
      const log = JSON.parse(fs.readFileSync(path.join(cwd, 'out.sarif'), 'utf8')) as {
        runs: Array<{
          results: Array<{
            ruleId: string;
            locations: Array<{
              physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
            }>;
          }>;
        }>;
      };
      const lines = log.runs[0].results
        .map((r) => {
          const loc = r.locations[0].physicalLocation;
          return `${r.ruleId} ${loc.artifactLocation.uri}:${loc.region.startLine}`;
        })
        .sort();
      const app = `${APPS}/vue-app/src/App.vue`;
      const item = `${APPS}/vue-app/src/NewsItem.vue`;
      const expected = (rule: string, loc: ReturnType<typeof at>) => `${rule} ${loc.path}:${loc.line}`;
      expect(lines).toEqual(
        [
          expected('image-alt', at(app, '<img :src="bannerUrl"')),
          expected('image-alt', at(item, '<img :src="image"')),
          expected('image-alt', at(item, '<img :src="image"')),
          expected('link-name', at(item, '<a href="/more">')),
          expected('link-name', at(item, '<a href="/more">')),
          expected('label', at(app, '<input type="search"')),
        ].sort(),
      );
    } finally {
      await server.close();
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  }, 60_000);
});
