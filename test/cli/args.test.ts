import { parseArgs, UsageError } from '../../cli/args.js';
import { cliOptions } from '../../cli/options.js';

const API = ['--api-url', 'http://127.0.0.1:9/', '--api-key', 'k', '--site-id', 's', '--sha', 'a'.repeat(40)];

describe('the command line: switches work as the usage shows them', () => {
  test('bare switches do not swallow the next option (the usage example)', () => {
    const o = cliOptions(
      parseArgs(['scan', 'http://x.test/', ...API, '--gate', '--fail-on-critical', '--junit', 'out.xml']),
    );
    expect(o.service).toMatchObject({ gate: true, failOnCritical: true, failOnSerious: null });
    expect(o.junit).toBe('out.xml');
    expect(o.scan.urls).toEqual(['http://x.test/']);
  });

  test('--no-NAME and --NAME=false turn one off; --NAME true is still read', () => {
    const off = cliOptions(
      parseArgs([
        'scan',
        'http://x.test/',
        ...API,
        '--gate',
        '--no-fail-on-critical',
        '--fail-on-serious=false',
      ]),
    );
    expect(off.service).toMatchObject({ failOnCritical: false, failOnSerious: false });
    const old = cliOptions(
      parseArgs(['scan', 'http://x.test/', ...API, '--gate', '--fail-on-serious', 'true']),
    );
    expect(old.service).toMatchObject({ failOnSerious: true });
    expect(cliOptions(parseArgs(['scan', 'http://x.test/', '--no-bypass-csp'])).scan.bypassCsp).toBe(false);
    expect(cliOptions(parseArgs(['scan', 'http://x.test/', '--bypass-csp=false'])).scan.bypassCsp).toBe(
      false,
    );
    expect(cliOptions(parseArgs(['scan', 'http://x.test/'])).scan.bypassCsp).toBe(true);
  });

  test('contradictions and values that are not on/off are usage errors', () => {
    expect(() => parseArgs(['scan', 'http://x.test/', '--gate', '--no-gate'])).toThrow(UsageError);
    expect(() => parseArgs(['scan', 'http://x.test/', '--gate=yes'])).toThrow(UsageError);
    expect(() => parseArgs(['scan', 'http://x.test/', '--no-gate=true'])).toThrow(UsageError);
  });

  test('source options: repeatable maps, a checked attribute name', () => {
    const o = cliOptions(
      parseArgs([
        'scan',
        'http://x.test/',
        '--source-root',
        '.',
        '--source-map',
        '/docs/ => site/docs',
        '--source-map',
        'https://x.test/blog/ => blog',
        '--source-attribute',
        'data-src',
      ]),
    );
    expect(o.scan.sourceRoot).toBe('.');
    expect(o.scan.sourceMaps).toEqual([
      { prefix: '/docs/', dir: 'site/docs' },
      { prefix: 'https://x.test/blog/', dir: 'blog' },
    ]);
    expect(o.scan.sourceAttribute).toBe('data-src');
    expect(() => cliOptions(parseArgs(['scan', 'http://x.test/', '--source-map', 'docs => x']))).toThrow(
      /PREFIX => DIR/,
    );
    expect(() => cliOptions(parseArgs(['scan', 'http://x.test/', '--source-attribute', 'a b']))).toThrow(
      /attribute name/,
    );
  });
});

describe('the HTML report options', () => {
  test('--html names the file; --open alone writes the default one; both are switches of their own', () => {
    const named = cliOptions(
      parseArgs(['scan', 'http://x.test/', '--html', 'a11y.html', '--open', '--junit', 'j.xml']),
    );
    expect(named).toMatchObject({ html: 'a11y.html', open: true, junit: 'j.xml' });
    expect(cliOptions(parseArgs(['scan', 'http://x.test/', '--open']))).toMatchObject({
      html: '.a11y-gate/report.html',
      open: true,
    });
    expect(cliOptions(parseArgs(['scan', 'http://x.test/']))).toMatchObject({ html: null, open: false });
    expect(() => parseArgs(['scan', 'http://x.test/', '--html'])).toThrow('--html needs a value');
  });
});
