import { parseArgs } from '../../cli/args.js';
import { cliOptions } from '../../cli/options.js';

// Element pictures cost a capture of the screen each: the CLI takes them only where they are shown (the
// service keeps them with its pages, the HTML report embeds them), within the limits the flags set.

const pictures = (argv: string[]) =>
  cliOptions(parseArgs(['scan', 'https://shop.example/', ...argv]), {}).scan.screenshots;

describe('element pictures: taken where they are shown', () => {
  test('with neither a service nor an HTML report, none are taken', () => {
    expect(pictures([]).enabled).toBe(false);
    expect(pictures(['--sarif', 'a.sarif', '--junit', 'j.xml', '--out', 'raw']).enabled).toBe(false);
  });

  test('for the HTML report (--html, or --open with its default file), with the limits given', () => {
    expect(pictures(['--html', 'report.html'])).toMatchObject({ enabled: true, perPage: 20, perScan: 500 });
    expect(pictures(['--open']).enabled).toBe(true);
    expect(pictures(['--html', 'r.html', '--screenshots-per-page', '3']).perPage).toBe(3);
  });

  test('for the service, and never where they are turned off', () => {
    const service = ['--api-url', 'https://a11y.example', '--api-key', 'k'];
    expect(pictures(service).enabled).toBe(true);
    expect(pictures([...service, '--no-screenshots']).enabled).toBe(false);
    expect(pictures(['--html', 'r.html', '--no-screenshots']).enabled).toBe(false);
  });
});
