import type { ScanOptions } from '../scanner/options.js';
import { parseScanSettings } from '../scanner/settings.js';
import { UsageError, type CommandLine } from './args.js';
import { defaultScanGroup } from '../client/shard-submit.js';
import { keyOf } from './config.js';
import type { LocalGateSettings } from '../scanner/local-gate.js';
import { DEFAULT_BASELINE } from '../scanner/baseline-file.js';
import { parseUrlSettings, type PageSettings } from '../scanner/url-settings.js';
import { picturesWhereShown } from '../scanner/screenshots.js';

/** Where `--open` without `--html` writes the HTML report. */
export const DEFAULT_HTML_REPORT = '.a11y-gate/report.html';

/** The gate without a service: the committed baseline file and the thresholds it is judged with. */
export interface LocalGateOptions extends LocalGateSettings {
  baselineFile: string;
  /** Write the baseline file from this scan (`a11y-gate baseline`, `--update-baseline`). */
  update: boolean;
  /** Drop the baseline's entries no longer found. */
  prune: boolean;
  /** Per-page settings of the configuration file. */
  pages: PageSettings[];
  /** The configuration file read, for messages; null: none. */
  configFile: string | null;
}

/** The service part of the command line; null `apiUrl`: scan and report only. */
export interface ServiceOptions {
  apiUrl: string;
  apiKey: string;
  siteId: string | null;
  sha: string | null;
  branch: string | null;
  gate: boolean;
  failOnCritical: boolean | null;
  failOnSerious: boolean | null;
  maxNewIssues: number | null;
  /** The group key of a sharded scan (with --shard, or for `complete`); null: not sharded. */
  group: string | null;
}

export interface CliOptions {
  scan: ScanOptions;
  service: ServiceOptions | null;
  local: LocalGateOptions;
  out: string | null;
  junit: string | null;
  sarif: string | null;
  /** The HTML report's file (with --open and no --html, the default one); null: none. */
  html: string | null;
  /** Open the HTML report in the default browser once written. */
  open: boolean;
}

type Fail = (name: string, problem: string) => UsageError;

/** The scanner's setting names whose flag is named otherwise. */
const FLAG_OF_SETTING: Record<string, string> = {
  headers: 'header',
  cookies: 'cookie',
  viewports: 'viewport',
  'max-pages': 'crawl',
};

/** An error about a value: the flag's, or the configuration file's key when the value came from there. */
function failure(cl: CommandLine): Fail {
  return (name, problem) => {
    const flag = FLAG_OF_SETTING[name] ?? name;
    const file = cl.origins?.get(flag);
    return new UsageError(file ? `${file}: "${keyOf(flag)}" ${problem}` : `--${flag} ${problem}`);
  };
}

function bool(cl: CommandLine, name: string): boolean | null {
  const fail = failure(cl);
  const v = cl.values.get(name);
  if (v === undefined) return null;
  if (/^(true|false)$/i.test(v)) return /^true$/i.test(v);
  throw fail(name, `must be true or false, got "${v}"`);
}

const GROUP = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;

/** --scan-group, else the default from the sha and the CI run id; null when neither can be had. */
function groupOf(cl: CommandLine, env: NodeJS.ProcessEnv, sha: string | null): string | null {
  const fail = failure(cl);
  const given = cl.values.get('scan-group');
  if (given !== undefined && !GROUP.test(given)) {
    throw fail(
      'scan-group',
      'must be 1-200 letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
    );
  }
  return given ?? defaultScanGroup(sha, env);
}

export const isHttpUrl = (url: string) => /^https?:\/\//i.test(url) && URL.canParse(url);

/** The service's root as the client wants it: `--api-url` may name it with or without `/api/v1`. */
export const serviceBaseUrl = (apiUrl: string) => apiUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');

function service(cl: CommandLine, env: NodeJS.ProcessEnv, sharded = false): ServiceOptions | null {
  const fail = failure(cl);
  const apiUrl = cl.values.get('api-url') ?? null;
  const gate = cl.values.get('gate') === 'true';
  if (!apiUrl) {
    if (gate) throw new UsageError('--gate needs --api-url (the service that keeps the baseline)');
    return null;
  }
  if (!isHttpUrl(apiUrl)) throw fail('api-url', 'must be an http(s) URL');
  const apiKey = cl.values.get('api-key') ?? env.A11Y_GATE_API_KEY ?? '';
  if (!apiKey) throw new UsageError('--api-key (or A11Y_GATE_API_KEY) is required with --api-url');
  const sha = cl.values.get('sha') ?? null;
  if (sha !== null && !/^[0-9a-fA-F]{7,64}$/.test(sha)) throw fail('sha', 'must be a hex commit sha');
  const siteId = cl.values.get('site-id') ?? null;
  if (gate && (!sha || !siteId)) throw new UsageError('--gate needs --site-id and --sha');
  const max = maxNewIssues(cl);
  const group = sharded ? groupOf(cl, env, sha) : null;
  if (sharded && !group) {
    throw new UsageError(
      'give --scan-group: no CI run id was found (GITHUB_RUN_ID, CI_PIPELINE_ID, CIRCLE_WORKFLOW_ID) to name the scan every shard sends to',
    );
  }
  return {
    group,
    apiUrl: serviceBaseUrl(apiUrl),
    apiKey,
    siteId,
    sha: sha?.toLowerCase() ?? null,
    branch: cl.values.get('branch') ?? null,
    gate,
    failOnCritical: bool(cl, 'fail-on-critical'),
    failOnSerious: bool(cl, 'fail-on-serious'),
    maxNewIssues: max,
  };
}

function maxNewIssues(cl: CommandLine): number | null {
  const max = cl.values.get('max-new-issues');
  if (max !== undefined && !/^\d+$/.test(max))
    throw failure(cl)('max-new-issues', 'must be a non-negative integer');
  return max === undefined ? null : Number(max);
}

function localGate(cl: CommandLine, config: Pick<LocalGateOptions, 'ignores' | 'pages' | 'configFile'>) {
  return {
    ...config,
    baselineFile: cl.values.get('baseline') || DEFAULT_BASELINE,
    update: cl.command === 'baseline' || cl.values.get('update-baseline') === 'true',
    prune: cl.values.get('prune') === 'true',
    failOnCritical: bool(cl, 'fail-on-critical'),
    failOnSerious: bool(cl, 'fail-on-serious'),
    maxNewIssues: maxNewIssues(cl),
  };
}

export function cliOptions(
  cl: CommandLine,
  env: NodeJS.ProcessEnv = process.env,
  config: Pick<LocalGateOptions, 'ignores' | 'pages' | 'configFile'> = {
    ignores: [],
    pages: [],
    configFile: null,
  },
): CliOptions {
  const crawl = cl.values.get('crawl');
  const get = (name: string): string => {
    if (name === 'urls') return cl.urls.join('\n');
    if (name === 'crawl') return crawl === undefined ? '' : 'true';
    return cl.values.get(FLAG_OF_SETTING[name] ?? name) ?? '';
  };
  const scan = parseScanSettings(get, failure(cl));
  if (!scan) throw new UsageError('give at least one URL, --sitemap, --urls-file or --serve');
  // A served folder is the repository's files: its findings are located (relative to the working folder).
  if (scan.serve && !scan.sourceRoot) scan.sourceRoot = process.cwd();
  scan.urlSettings = parseUrlSettings(
    config.pages,
    (i, key, problem) => new UsageError(`${config.configFile ?? 'pages'}: "pages[${i}].${key}" ${problem}`),
  );
  const svc = service(cl, env, scan.shard !== null);
  const open = cl.values.get('open') === 'true';
  const html = cl.values.get('html') ?? (open ? DEFAULT_HTML_REPORT : null);
  scan.screenshots = picturesWhereShown(scan.screenshots, { service: svc !== null, report: html !== null });
  if (svc && (cl.command === 'baseline' || cl.values.get('update-baseline') === 'true'))
    throw new UsageError(
      'the baseline file is for a run without --api-url: the service keeps its own baseline',
    );
  return {
    scan,
    service: svc,
    local: localGate(cl, config),
    out: cl.values.get('out') ?? null,
    junit: cl.values.get('junit') ?? null,
    sarif: cl.values.get('sarif') ?? null,
    html,
    open,
  };
}

/** `a11y-gate complete`: the service options of the final job of a sharded run. */
export function completeOptions(
  cl: CommandLine,
  env: NodeJS.ProcessEnv = process.env,
): ServiceOptions & { group: string; siteId: string } {
  if (!cl.values.get('api-url'))
    throw new UsageError('complete needs --api-url (the service the shards sent to)');
  const svc = service(cl, env, true)!;
  if (!svc.siteId) throw new UsageError('complete needs --site-id (a group key names a scan of one site)');
  return { ...svc, group: svc.group!, siteId: svc.siteId };
}
