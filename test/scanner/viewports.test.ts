import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError, parseInputs } from '../../action/inputs.js';
import { parseArgs, UsageError } from '../../cli/args.js';
import { loadConfigFile, withConfig } from '../../cli/config.js';
import { cliOptions } from '../../cli/options.js';
import { parseViewport } from '../../scanner/viewports.js';

/** The CLI's options from these arguments and configuration files, as `a11y-gate scan` reads them. */
async function cli(argv: string[], files: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-viewports-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const config = await loadConfigFile(dir, null);
  const cl = parseArgs(argv);
  return cliOptions(
    config ? withConfig(cl, config) : cl,
    {},
    {
      ignores: [],
      pages: config?.pages ?? [],
      configFile: config?.file ?? null,
    },
  );
}

async function usageError(argv: string[], files: Record<string, string> = {}): Promise<string> {
  try {
    await cli(argv, files);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error('the options were taken');
}

describe('viewports, as the CLI, its configuration file and the Action read them', () => {
  test('a size is WIDTHxHEIGHT in CSS pixels; a device brings its whole profile, named as Playwright’s list spells it', () => {
    expect(parseViewport('390x844')).toEqual({ name: '390x844', width: 390, height: 844 });
    expect(parseViewport(' 1280X720 ')).toEqual({ name: '1280x720', width: 1280, height: 720 });
    const phone = parseViewport('iphone  13');
    expect(phone).toMatchObject({
      name: 'iPhone 13',
      width: 390,
      device: { deviceScaleFactor: 3, isMobile: true, hasTouch: true, screen: { width: 390, height: 844 } },
    });
    expect(typeof phone !== 'string' && phone.device?.userAgent).toMatch(/iPhone/);
    expect(parseViewport('40x40')).toBe('"40x40": each side must be 100 to 10000 CSS pixels');
  });

  test('--viewport is repeatable, each once, in the order given; no viewport keeps the one default', async () => {
    const o = await cli([
      'scan',
      'http://x.test/',
      '--viewport',
      '390x844',
      '--viewport=iPhone 13',
      '--viewport',
      '390x844',
    ]);
    expect(o.scan.viewports.map((v) => v.name)).toEqual(['390x844', 'iPhone 13']);
    expect((await cli(['scan', 'http://x.test/'])).scan.viewports).toEqual([]);
  });

  test('an unknown device is a usage error that names it, the flag or the key, and devices it may have meant', async () => {
    expect(await usageError(['scan', 'http://x.test/', '--viewport', 'iPhone 99'])).toMatch(
      /^--viewport "iPhone 99" is neither WIDTHxHEIGHT nor a device Playwright knows \(such as "iPhone .*"\)$/,
    );
    expect(
      await usageError(['scan'], {
        'a11y-gate.config.yaml': 'urls: [http://x.test/]\nviewports: [390x844, Nokia 3310]\n',
      }),
    ).toMatch(/^a11y-gate\.config\.yaml: "viewports\[1\]" "Nokia 3310" is neither WIDTHxHEIGHT nor a device/);
    expect(
      await usageError(['scan'], {
        'a11y-gate.config.yaml':
          'urls: [http://x.test/]\npages:\n  - url: /app/**\n    viewports: [Galaxy S99]\n',
      }),
    ).toMatch(/^a11y-gate\.config\.yaml: "pages\[0\]\.viewports\[0\]" "Galaxy S99" is neither .*"Galaxy S8"/);
    const action = (viewports: string) =>
      parseInputs(
        (name) =>
          ({
            'api-url': 'https://a11y.example.com',
            'api-key': 'k',
            'site-id': 's',
            urls: 'http://x.test/',
            viewports,
          })[name] ?? '',
        { GITHUB_SHA: 'a'.repeat(40) },
      );
    expect(action('390x844, iPhone 13').scan?.viewports.map((v) => v.name)).toEqual(['390x844', 'iPhone 13']);
    let caught: unknown;
    try {
      action('Pixel 99');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(InputError);
    expect((caught as InputError).input).toBe('viewports');
    expect((caught as Error).message).toMatch(
      /^Input "viewports" "Pixel 99" is neither WIDTHxHEIGHT nor a device/,
    );
  });

  test('the configuration file: viewports for the run, and per-URL settings read like the flags, paths from its folder', async () => {
    const o = await cli(['scan'], {
      'a11y-gate.config.json': JSON.stringify({
        urls: ['http://x.test/'],
        viewports: ['1280x720', 'Pixel 7'],
        pages: [
          {
            url: '/app/**',
            waitFor: '#app',
            headers: { 'X-Preview': 'yes' },
            loginScript: 'login/app.mjs',
            viewports: ['390x844'],
          },
        ],
      }),
    });
    expect(o.scan.viewports.map((v) => v.name)).toEqual(['1280x720', 'Pixel 7']);
    expect(o.scan.urlSettings).toEqual([
      {
        url: '/app/**',
        waitFor: '#app',
        headers: { 'x-preview': 'yes' },
        loginScript: expect.stringMatching(/a11y-viewports-[^/]+\/login\/app\.mjs$/) as string,
        viewports: [{ name: '390x844', width: 390, height: 844 }],
      },
    ]);
    expect(
      await usageError(['scan'], {
        'a11y-gate.config.json': JSON.stringify({
          urls: ['http://x.test/'],
          pages: [{ url: '/docs/*', headers: { 'bad name': 'x' } }],
        }),
      }),
    ).toBe(
      'a11y-gate.config.json: "pages[0].headers" must be "Name: value" lines, got a line starting "bad name: x"',
    );
    expect(
      await usageError(['scan'], {
        'a11y-gate.config.json': JSON.stringify({
          urls: ['http://x.test/'],
          pages: [{ url: '/', viewports: [] }],
        }),
      }),
    ).toBe('a11y-gate.config.json: "pages[0].viewports" must name at least one viewport');
  });
});
