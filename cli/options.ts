import type { ScanOptions } from '../scanner/options.js';
import { parseScanSettings } from '../scanner/settings.js';
import { UsageError, type CommandLine } from './args.js';

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
}

export interface CliOptions {
  scan: ScanOptions;
  service: ServiceOptions | null;
  out: string | null;
  junit: string | null;
  sarif: string | null;
}

const fail = (name: string, problem: string) => new UsageError(`--${name} ${problem}`);

function bool(cl: CommandLine, name: string): boolean | null {
  const v = cl.values.get(name);
  if (v === undefined) return null;
  if (/^(true|false)$/i.test(v)) return /^true$/i.test(v);
  throw fail(name, `must be true or false, got "${v}"`);
}

function service(cl: CommandLine, env: NodeJS.ProcessEnv): ServiceOptions | null {
  const apiUrl = cl.values.get('api-url') ?? null;
  const gate = cl.values.get('gate') === 'true';
  if (!apiUrl) {
    if (gate) throw new UsageError('--gate needs --api-url (the service that keeps the baseline)');
    return null;
  }
  if (!/^https?:\/\//i.test(apiUrl) || !URL.canParse(apiUrl)) throw fail('api-url', 'must be an http(s) URL');
  const apiKey = cl.values.get('api-key') ?? env.A11Y_GATE_API_KEY ?? '';
  if (!apiKey) throw new UsageError('--api-key (or A11Y_GATE_API_KEY) is required with --api-url');
  const sha = cl.values.get('sha') ?? null;
  if (sha !== null && !/^[0-9a-fA-F]{7,64}$/.test(sha)) throw fail('sha', 'must be a hex commit sha');
  const siteId = cl.values.get('site-id') ?? null;
  if (gate && (!sha || !siteId)) throw new UsageError('--gate needs --site-id and --sha');
  const max = cl.values.get('max-new-issues');
  if (max !== undefined && !/^\d+$/.test(max)) throw fail('max-new-issues', 'must be a non-negative integer');
  return {
    apiUrl: apiUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, ''),
    apiKey,
    siteId,
    sha: sha?.toLowerCase() ?? null,
    branch: cl.values.get('branch') ?? null,
    gate,
    failOnCritical: bool(cl, 'fail-on-critical'),
    failOnSerious: bool(cl, 'fail-on-serious'),
    maxNewIssues: max === undefined ? null : Number(max),
  };
}

export function cliOptions(cl: CommandLine, env: NodeJS.ProcessEnv = process.env): CliOptions {
  const crawl = cl.values.get('crawl');
  const names: Record<string, string> = { headers: 'header', cookies: 'cookie', 'max-pages': 'crawl' };
  const get = (name: string): string => {
    if (name === 'urls') return cl.urls.join('\n');
    if (name === 'crawl') return crawl === undefined ? '' : 'true';
    return cl.values.get(names[name] ?? name) ?? '';
  };
  const scan = parseScanSettings(get, fail);
  if (!scan) throw new UsageError('give at least one URL, --sitemap or --urls-file');
  return {
    scan,
    service: service(cl, env),
    out: cl.values.get('out') ?? null,
    junit: cl.values.get('junit') ?? null,
    sarif: cl.values.get('sarif') ?? null,
  };
}
