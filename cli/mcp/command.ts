import { USAGE_HINT } from '../args.js';
import { runMcp } from './server.js';

/** `a11y-gate mcp [--chrome-path PATH]`: serves until the client goes; 2 on a usage mistake. */
export async function mcpCommand(argv: string[], err: (line: string) => void): Promise<number> {
  let chromePath: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (name !== '--chrome-path' || !value) {
      err(`a11y-gate: mcp takes only --chrome-path PATH\n${USAGE_HINT}`);
      return 2;
    }
    chromePath = value;
  }
  await runMcp({ chromePath, version: process.env.npm_package_version ?? '0.1.0' });
  return 0;
}
