/**
 * The command line, read in one place: `a11y-gate scan <url…> [flags]`. Scanner flags carry the Action's
 * input names (`--max-pages`, `--wait-for`…) and go through the same reading (scanner/settings.ts).
 */

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const USAGE = `Usage: a11y-gate scan <url...> [options]
       a11y-gate baseline <url...> [options]      record the issues found as the baseline file
       a11y-gate complete --scan-group KEY --api-url URL --site-id ID --sha SHA [--gate]
       a11y-gate mcp [--chrome-path PATH] [--api-url URL --api-key KEY]
                                                  the scanner (and the service's gate) as tools for a
                                                  coding agent (MCP on stdio)
       a11y-gate --version

Configuration and baseline (no service needed):
  --config FILE            else a11y-gate.config.{json,yaml,yml,mjs} or package.json "a11y-gate", found upwards;
                           its "pages" give the pages matching a URL glob their own wait-for, headers,
                           login script and viewports (the first entry that matches a page applies)
  --baseline FILE          the committed baseline (default .a11y-gate/baseline.json)
  --update-baseline        write the baseline file from this scan (what \`a11y-gate baseline\` does)
  --prune                  drop the baseline's entries no longer found
Pages:
  --serve DIR              serve this built folder on 127.0.0.1 for the run and scan it: the pages given
                           (paths such as /about are its pages), else its sitemap.xml, else a crawl from /
  --spa                    with --serve: unknown paths answer index.html (a single-page app)
  --sitemap URL            a sitemap.xml or sitemap index
  --sitemap-rewrite "FROM => TO"   scan sitemap URLs starting with FROM at TO instead
  --crawl N                follow same-origin links from the given pages, up to N pages
  --urls-file FILE         URLs, one a line (the scan is then partial unless --scope full)
  --scope full|partial     partial: the scan covers only its pages, compared on those alone
  --exclude GLOB           never scan matching URLs (repeatable)
  --shard I/N              scan only shard I of N of the pages (a job of a parallel run; not with --crawl)
Browser:
  --chrome-path PATH       else CHROME_PATH, /usr/bin/google-chrome, chromium on PATH
  --concurrency N          pages at a time (default: the CPU count)
  --timeout SECONDS        per page (default 30)
  --wait-until EVENT       load | domcontentloaded | networkidle | commit (default load)
  --wait-for SELECTOR      wait until this element appears
  --axe-tags TAGS          comma-separated (default wcag2a,wcag2aa,wcag21a,wcag21aa,wcag22aa,best-practice)
  --no-bypass-csp          keep the pages' Content-Security-Policy (axe may then fail to run)
  --viewport SIZE|DEVICE   scan every page at this size (390x844) or device ("iPhone 13"), repeatable:
                           once per viewport, each its own issues (default: once, at 1280x720)
Signed-in pages:
  --header "NAME: VALUE"   sent to the scanned origins only (repeatable)
  --cookie "NAME=VALUE"    set on the scanned origins (repeatable)
  --storage-state FILE     a Playwright storage state file
  --login-script FILE      a module whose default export receives the page to log in
  --login-url GLOB         a page that ends there fails the run (not signed in)
Service (optional):
  --api-url URL --api-key KEY (or A11Y_GATE_API_KEY) --site-id ID --sha SHA --branch NAME
  --gate                   call the deploy gate for the sha; exit 1 when it fails
  --scan-group KEY         the one scan every shard of a run sends to (default: the sha and the CI run id)
  --fail-on-critical  --fail-on-serious  --max-new-issues N
  --keep-passes            send the text rules' passing elements, so the gate answers claimed fixes
Switches are on when given bare; --no-NAME or --NAME=false turns one off.
Source (findings located in the repository, see docs/cli.md):
  --source-root DIR        the repository's folder; paths are relative to it
  --source-map "PREFIX => DIR"   pages under PREFIX are the files of DIR (repeatable)
  --source-attribute NAME  your build's own path:line[:column] attribute
Screenshots (of violating elements, for the service and the HTML report; none without either):
  --no-screenshots         take none
  --screenshots-per-page N --screenshots-per-scan N --screenshot-max-kb N   (default 20, 500, 100)
Reports:
  --out DIR                each page's raw axe-core result
  --junit FILE             JUnit XML, one test case per page
  --sarif FILE             SARIF 2.1.0
  --html FILE              one HTML file: the verdict, every issue with its picture and fix, filters
  --open                   open the HTML report in the default browser (without --html it is written to
                           .a11y-gate/report.html); with no display, says where the file is

Exit codes: 0 passed (or a shard sent while other shards are still running), 1 the gate failed
(or complete found shards missing), 2 usage or scan error.`;

/** What a usage mistake prints under its own line, rather than the whole help. */
export const USAGE_HINT = 'Run "a11y-gate --help" for the options.';

/** Flags that take a value; those marked repeatable collect their values one a line. */
const VALUE_FLAGS = new Set([
  'config',
  'baseline',
  'sitemap',
  'sitemap-rewrite',
  'crawl',
  'urls-file',
  'scope',
  'serve',
  'exclude',
  'shard',
  'scan-group',
  'chrome-path',
  'concurrency',
  'timeout',
  'wait-until',
  'wait-for',
  'axe-tags',
  'viewport',
  'header',
  'cookie',
  'storage-state',
  'login-script',
  'login-url',
  'api-url',
  'api-key',
  'site-id',
  'sha',
  'branch',
  'max-new-issues',
  'out',
  'junit',
  'sarif',
  'html',
  'source-root',
  'source-map',
  'source-attribute',
  'screenshots-per-page',
  'screenshots-per-scan',
  'screenshot-max-kb',
]);
const REPEATABLE = new Set(['exclude', 'header', 'cookie', 'source-map', 'viewport']);
/** On/off options: `--x` (on), `--no-x` or `--x=false` (off); `--x true` is read too, as older usage showed. */
const BOOLEANS = new Set([
  'gate',
  'fail-on-critical',
  'fail-on-serious',
  'bypass-csp',
  'screenshots',
  'keep-passes',
  'update-baseline',
  'prune',
  'spa',
  'open',
]);
const SWITCHES = new Set(['help']);
const BOOLEAN_TEXT = /^(true|false)$/i;

export interface CommandLine {
  command: 'scan' | 'baseline' | 'complete';
  urls: string[];
  values: Map<string, string>;
  switches: Set<string>;
  /** Values taken from the configuration file: flag name to the file, so an error names the file's key. */
  origins?: Map<string, string>;
}

/** Reads one on/off option into `values` as "true" or "false"; returns the index of the last argument used. */
function readBoolean(
  rest: string[],
  i: number,
  name: string,
  eq: number,
  values: Map<string, string>,
): number {
  const negated = !BOOLEANS.has(name);
  const key = negated ? name.slice(3) : name;
  let value = 'true';
  let last = i;
  if (eq > 0) {
    value = rest[i].slice(eq + 1);
    if (negated || !BOOLEAN_TEXT.test(value))
      throw new UsageError(`--${name} takes no value but true or false`);
  } else if (!negated && BOOLEAN_TEXT.test(rest[i + 1] ?? '')) {
    value = rest[++last];
  }
  const on = negated ? 'false' : value.toLowerCase();
  if (values.has(key) && values.get(key) !== on) throw new UsageError(`--${key} is given twice`);
  values.set(key, on);
  return last;
}

export function parseArgs(argv: string[]): CommandLine {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h')
    return { command: 'scan', urls: [], values: new Map(), switches: new Set(['help']) };
  if (command !== 'scan' && command !== 'baseline' && command !== 'complete')
    throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  const urls: string[] = [];
  const values = new Map<string, string>();
  const switches = new Set<string>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith('--')) {
      urls.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    if (BOOLEANS.has(name) || (name.startsWith('no-') && BOOLEANS.has(name.slice(3)))) {
      i = readBoolean(rest, i, name, eq, values);
      continue;
    }
    if (SWITCHES.has(name) && eq < 0) {
      switches.add(name);
      continue;
    }
    if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    const before = values.get(name);
    if (before !== undefined && !REPEATABLE.has(name)) throw new UsageError(`--${name} is given twice`);
    values.set(name, before === undefined ? value : `${before}\n${value}`);
  }
  if (command === 'complete' && urls.length > 0) {
    throw new UsageError('complete takes no pages: it completes the scan the shards sent to');
  }
  return { command, urls, values, switches };
}
