import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, UsageError } from '../../cli/args.js';
import { loadConfigFile, withConfig } from '../../cli/config.js';
import { cliOptions } from '../../cli/options.js';

// `--serve DIR` and `--spa` as the CLI and its configuration file read them (scanner/settings.ts, which the
// Action's inputs share): which pages a served folder gives, and the mistakes refused before anything runs.

const folder = (files: Record<string, string>) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-serve-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
};

const options = (argv: string[]) => cliOptions(parseArgs(['scan', ...argv]));
const refusal = (argv: string[]) => {
  try {
    options(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('the command line was taken');
};

describe('--serve DIR: which pages a served folder gives', () => {
  test('no pages given: the folder’s sitemap.xml when it has one, else a crawl from / up to --crawl', () => {
    const withMap = folder({ 'index.html': '', 'sitemap.xml': '<urlset/>' });
    expect(options(['--serve', withMap]).scan).toMatchObject({
      serve: { dir: withMap, spa: false },
      urls: [],
      sitemap: '/sitemap.xml',
      crawl: false,
    });
    const plain = folder({ 'index.html': '' });
    expect(options(['--serve', plain]).scan).toMatchObject({
      urls: ['/'],
      sitemap: null,
      crawl: true,
      maxPages: 50,
    });
    // --crawl crawls from / even where a sitemap is, and sets how far.
    expect(options(['--serve', withMap, '--crawl', '7']).scan).toMatchObject({
      urls: ['/'],
      sitemap: null,
      crawl: true,
      maxPages: 7,
    });
  });

  test('pages given are scanned as given: paths are pages of the folder; --spa is read', () => {
    const dir = folder({ 'index.html': '' });
    expect(options(['/about', '/pricing', '--serve', dir, '--spa']).scan).toMatchObject({
      serve: { dir, spa: true },
      urls: ['/about', '/pricing'],
      crawl: false,
    });
    // Without a served folder a path has no origin to belong to.
    expect(refusal(['/about'])).toBe('--urls must hold absolute http(s) URLs, got "/about"');
  });

  test('findings are located: the working folder is the source root unless --source-root names one', () => {
    const dir = folder({ 'index.html': '' });
    expect(options(['--serve', dir]).scan.sourceRoot).toBe(process.cwd());
    expect(options(['--serve', dir, '--source-root', dir]).scan.sourceRoot).toBe(dir);
    expect(options(['http://x.test/']).scan.sourceRoot).toBeNull();
  });

  test('a folder that does not exist, a file, --spa alone, or a crawl split in shards: one line naming it', () => {
    const dir = folder({ 'index.html': '' });
    expect(refusal(['--serve', path.join(dir, 'dist')])).toBe(
      `--serve must be a folder: "${path.join(dir, 'dist')}" does not exist`,
    );
    expect(refusal(['--serve', path.join(dir, 'index.html')])).toBe(
      `--serve must be a folder: "${path.join(dir, 'index.html')}" is not one`,
    );
    expect(refusal(['http://x.test/', '--spa'])).toBe(
      '--spa needs "serve": the built folder to serve as a single-page app',
    );
    expect(refusal(['--serve', dir, '--shard', '1/2'])).toMatch(/^--shard cannot split a crawl/);
  });

  test('the configuration file’s serve is read from its folder, and spa is an on/off key', async () => {
    const dir = folder({
      'site/dist/index.html': '',
      'site/a11y-gate.config.yaml': 'serve: dist\nspa: true\nurls:\n  - /app/settings\n',
    });
    const config = (await loadConfigFile(path.join(dir, 'site'), null))!;
    const o = cliOptions(withConfig(parseArgs(['scan']), config));
    expect(o.scan.serve).toEqual({ dir: path.join(dir, 'site', 'dist'), spa: true });
    expect(o.scan.urls).toEqual(['/app/settings']);
    const wrong = folder({ 'a11y-gate.config.json': JSON.stringify({ serve: 'build', urls: ['/'] }) });
    await expect(async () =>
      cliOptions(withConfig(parseArgs(['scan']), (await loadConfigFile(wrong, null))!)),
    ).rejects.toThrow(
      `a11y-gate.config.json: "serve" must be a folder: "${path.join(wrong, 'build')}" does not exist`,
    );
  });
});
