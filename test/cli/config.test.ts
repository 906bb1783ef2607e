import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, UsageError } from '../../cli/args.js';
import { CONFIG_MAX_BYTES, loadConfigFile, readConfig, withConfig } from '../../cli/config.js';
import { cliOptions } from '../../cli/options.js';

const folder = (files: Record<string, string>) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-config-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
};

/** The message of the UsageError the configuration gives, as the user reads it. */
async function refusal(files: Record<string, string>, argv = ['scan'], named: string | null = null) {
  const dir = folder(files);
  try {
    const config = await loadConfigFile(dir, named);
    cliOptions(withConfig(parseArgs(argv), config!), {}, { ignores: [], pages: [], configFile: null });
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('the configuration was taken');
}

describe('the configuration file', () => {
  test('is found upwards in any of its forms, package.json included, and its keys become the flags', async () => {
    const dir = folder({
      'package.json': JSON.stringify({ name: 'site', 'a11y-gate': { urls: ['https://a.test/'], crawl: 20 } }),
      'web/src/.keep': '',
    });
    const found = await loadConfigFile(path.join(dir, 'web', 'src'), null);
    expect(found?.file).toMatch(/package\.json \("a11y-gate" key\)$/);
    const options = cliOptions(withConfig(parseArgs(['scan']), found!));
    expect(options.scan.urls).toEqual(['https://a.test/']);
    expect(options.scan.crawl).toBe(true);
    expect(options.scan.maxPages).toBe(20);
  });

  test("a flag given replaces the key; paths are read from the configuration file's folder", async () => {
    const dir = folder({
      'a11y-gate.config.json': JSON.stringify({
        urls: ['https://a.test/'],
        waitFor: '#app',
        headers: { 'X-Preview': 'yes' },
        baseline: 'ci/baseline.json',
      }),
    });
    const config = (await loadConfigFile(dir, null))!;
    const options = cliOptions(withConfig(parseArgs(['scan', '--wait-for', 'main']), config));
    expect(options.scan.waitFor).toBe('main');
    expect(options.scan.headers).toEqual({ 'x-preview': 'yes' });
    expect(options.local.baselineFile).toBe(path.join(dir, 'ci', 'baseline.json'));
  });

  test('scope: a urls-file makes the scan partial unless the key or --scope says full', async () => {
    const dir = folder({ 'a11y-gate.config.yaml': 'urlsFile: touched.txt\n', 'touched.txt': '' });
    const config = (await loadConfigFile(dir, null))!;
    expect(cliOptions(withConfig(parseArgs(['scan']), config)).scan.scope).toBe('partial');
    expect(cliOptions(withConfig(parseArgs(['scan', '--scope', 'full']), config)).scan.scope).toBe('full');
    expect(cliOptions(parseArgs(['scan', 'https://a.test/'])).scan.scope).toBe('full');
    expect(cliOptions(parseArgs(['scan', 'https://a.test/', '--scope', 'partial'])).scan.scope).toBe(
      'partial',
    );
    const full = folder({ 'a11y-gate.config.json': '{"urlsFile":"touched.txt","scope":"full"}' });
    expect(cliOptions(withConfig(parseArgs(['scan']), (await loadConfigFile(full, null))!)).scan.scope).toBe(
      'full',
    );
    expect(await refusal({ 'a11y-gate.config.json': '{"urls":["https://a.test/"],"scope":"some"}' })).toBe(
      'a11y-gate.config.json: "scope" must be full or partial, got "some"',
    );
  });

  test("html is a path like junit, read from the file's folder; open is on/off", async () => {
    const dir = folder({
      'web/a11y-gate.config.yaml': 'urls: [https://a.test/]\nhtml: reports/a11y.html\nopen: true\n',
    });
    const config = (await loadConfigFile(path.join(dir, 'web'), null))!;
    const options = cliOptions(withConfig(parseArgs(['scan']), config));
    expect(options).toMatchObject({ html: path.join(dir, 'web', 'reports', 'a11y.html'), open: true });
    expect(await refusal({ 'a11y-gate.config.json': '{"urls":["https://a.test/"],"open":"yes"}' })).toMatch(
      /^a11y-gate\.config\.json: "open" expected boolean/,
    );
  });

  test('a value the flags refuse is refused with the key and the file named', async () => {
    expect(await refusal({ 'a11y-gate.config.json': '{"urls":["https://a.test/"],"concurrency":0}' })).toBe(
      'a11y-gate.config.json: "concurrency" must be an integer of at least 1, got "0"',
    );
    expect(await refusal({ 'a11y-gate.config.yaml': 'urls: [ftp://a.test/]\n' })).toBe(
      'a11y-gate.config.yaml: "urls" must hold absolute http(s) URLs, got "ftp://a.test/"',
    );
    // The same value as a flag names the flag.
    expect(
      await refusal({ 'a11y-gate.config.yaml': 'urls: [https://a.test/]\n' }, ['scan', '--concurrency', '0']),
    ).toBe('--concurrency must be an integer of at least 1, got "0"');
  });

  test('a key of the wrong shape, or unknown, is named with its place in the file', async () => {
    expect(await refusal({ 'a11y-gate.config.json': '{"urls":"https://a.test/"}' })).toBe(
      'a11y-gate.config.json: "urls" expected array, received string',
    );
    expect(await refusal({ 'a11y-gate.config.yaml': 'urls: [https://a.test/]\nwaitfor: main\n' })).toBe(
      'a11y-gate.config.yaml: unknown key "waitfor"',
    );
    expect(
      await refusal({
        'a11y-gate.config.yaml': 'ignore:\n  - rule: region\n    until: 2026-02-30\n    reason: x\n',
      }),
    ).toBe('a11y-gate.config.yaml: "ignore[0].until" must be a date that exists');
    expect(await refusal({ 'a11y-gate.config.yaml': 'ignore:\n  - rule: region\n' })).toBe(
      'a11y-gate.config.yaml: "ignore[0].reason" expected string, received undefined',
    );
    expect(await refusal({ 'a11y-gate.config.yaml': 'ignore:\n  - reason: because\n' })).toBe(
      'a11y-gate.config.yaml: "ignore[0]" must name a rule, a selector or a url',
    );
    expect(
      await refusal({ 'a11y-gate.config.yaml': 'pages:\n  - url: /app/*\n    viewports: ["390 by 844"]\n' }),
    ).toMatch(
      /^a11y-gate\.config\.yaml: "pages\[0\]\.viewports\[0\]" "390 by 844" is neither WIDTHxHEIGHT nor a device Playwright knows/,
    );
    // A line break would make one header two.
    expect(await refusal({ 'a11y-gate.config.json': '{"headers":{"X-A":"1\\nX-B: 2"}}' })).toBe(
      'a11y-gate.config.json: "headers.X-A" must be one line',
    );
  });

  test('is hostile until checked: no YAML tags or code, no giant file, only the forms it knows', async () => {
    expect(await refusal({ 'a11y-gate.config.yaml': 'urls: !!js/function "function () {}"\n' })).toMatch(
      /^a11y-gate\.config\.yaml: .*unknown tag/,
    );
    expect(await refusal({ 'a11y-gate.config.json': `{"urls":["${'x'.repeat(CONFIG_MAX_BYTES)}"]}` })).toBe(
      `a11y-gate.config.json: larger than ${CONFIG_MAX_BYTES / 1024} KiB: not a configuration file`,
    );
    expect(await refusal({ 'settings.txt': 'urls=x' }, ['scan'], 'settings.txt')).toBe(
      '--config settings.txt: must be a .json, .yaml, .yml or .mjs file',
    );
    expect(await refusal({}, ['scan'], 'missing.json')).toBe('--config missing.json: no such file');
    // A date in YAML stays the text it was written as (not a Date), so `until` reads as written.
    expect(
      readConfig({ ignore: [{ rule: 'region', reason: 'r', until: '2027-01-31' }] }, 'f', '/').ignores,
    ).toEqual([{ rule: 'region', reason: 'r', until: '2027-01-31' }]);
  });

  test('an .mjs configuration is its default export', async () => {
    const dir = folder({
      'a11y-gate.config.mjs': 'export default { urls: ["https://a.test/"], maxNewIssues: 3 };\n',
    });
    const options = cliOptions(withConfig(parseArgs(['scan']), (await loadConfigFile(dir, null))!));
    expect(options.local.maxNewIssues).toBe(3);
  });
});
