import { packageVersion } from '../../core/package-version.js';
import { USAGE_HINT } from '../args.js';
import { isHttpUrl, serviceBaseUrl } from '../options.js';
import { runMcp } from './server.js';
import type { McpService } from './service.js';

const FLAGS = new Set(['--chrome-path', '--api-url', '--api-key']);

/**
 * `a11y-gate mcp [--chrome-path PATH] [--api-url URL --api-key KEY]`: serves until the client goes; 2 on a
 * usage mistake. With a service (the key also from A11Y_GATE_API_KEY) it offers `gate` and `deploy_issues`.
 */
export async function mcpCommand(argv: string[], err: (line: string) => void): Promise<number> {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (!FLAGS.has(name) || !value) {
      err(`a11y-gate: mcp takes only --chrome-path PATH, --api-url URL and --api-key KEY\n${USAGE_HINT}`);
      return 2;
    }
    values.set(name, value);
  }
  const service = values.has('--api-url')
    ? serviceOf(values.get('--api-url')!, values.get('--api-key') ?? process.env.A11Y_GATE_API_KEY)
    : values.has('--api-key')
      ? '--api-key needs --api-url (the service that runs the gate)'
      : null;
  if (typeof service === 'string') {
    err(`a11y-gate: ${service}\n${USAGE_HINT}`);
    return 2;
  }
  await runMcp({
    chromePath: values.get('--chrome-path') ?? null,
    version: packageVersion(import.meta.url),
    service,
    log: (line) => process.stderr.write(`${line}\n`),
  });
  return 0;
}

/** The service, or what is wrong with the flags. */
function serviceOf(apiUrl: string, apiKey: string | undefined): McpService | string {
  if (!isHttpUrl(apiUrl)) return '--api-url must be an http(s) URL';
  if (!apiKey) return '--api-key (or A11Y_GATE_API_KEY) is required with --api-url';
  return { apiUrl: serviceBaseUrl(apiUrl), apiKey };
}
