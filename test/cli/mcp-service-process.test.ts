import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { DeployEvent } from '../../core/gate/deploy-event.js';
import type { CreatedScan } from '../helpers/api-types.js';
import { useHarness } from '../helpers/harness.js';

// `a11y-gate mcp --api-url` as a local agent starts it: the gate and a deploy's new issues come from a real
// service on loopback, through the API client, with the key from A11Y_GATE_API_KEY.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const main = path.join(root, 'cli', 'main.ts');
const MAIN_SHA = 'a'.repeat(40);
const HEAD_SHA = 'b'.repeat(40);

type ToolAnswer<T> = { structuredContent?: T; isError?: boolean; content: Array<{ text?: string }> };

describe('a11y-gate mcp with a service', () => {
  const h = useHarness({ org: 'acme' });
  let client: Client;
  const call = async <T>(name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer<T>;

  beforeAll(async () => {
    const issues = [{ rule: 'region', impact: 'moderate', selector: 'main' }];
    const button = {
      rule: 'button-name',
      impact: 'critical',
      selector: '#buy',
      html: '<button id="buy"></button>',
    };
    for (const [sha, branch, list] of [
      [MAIN_SHA, 'main', issues],
      [HEAD_SHA, 'feature/buy', [...issues, button]],
    ] as const) {
      const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key: h.key,
        body: {
          siteId: 'shop',
          url: 'https://shop.example',
          sha,
          branch,
          pages: [{ url: 'https://shop.example/', issues: list }],
        },
      });
      expect(res.status).toBe(201);
    }
    client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', tsx, main, 'mcp', '--api-url', `${h.url}/api/v1`],
        env: { PATH: process.env.PATH ?? '', A11Y_GATE_API_KEY: h.key, A11Y_GATE_RETRY_DELAY_MS: '10' },
        stderr: 'ignore',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  test('gate and deploy_issues answer from the service; a deploy event it does not know is a tool error', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['deploy_issues', 'explain', 'gate', 'scan', 'verify']);

    const gate = await call<{ deploy_id: string; passed: boolean; new_by_impact: { critical: number } }>(
      'gate',
      {
        siteId: 'shop',
        sha: HEAD_SHA,
      },
    );
    expect(gate.isError).toBeFalsy();
    expect(gate.structuredContent).toMatchObject({ passed: false, new_by_impact: { critical: 1 } });
    const id = gate.structuredContent!.deploy_id;
    const rest = await h.request<DeployEvent>('GET', `/api/v1/deploy/${id}`, { key: h.key });

    const listed = await call<{ new_issues: Array<{ fingerprint: string; rule: string }> }>('deploy_issues', {
      deploy_id: id,
    });
    expect(listed.structuredContent!.new_issues).toEqual([
      expect.objectContaining({ rule: 'button-name', fingerprint: rest.body.new_issues[0].fingerprint }),
    ]);
    const explained = await call<{ needs_person_review: boolean; element: { selector: string } }>('explain', {
      deploy_id: id,
      fingerprint: rest.body.new_issues[0].fingerprint,
    });
    expect(explained.structuredContent).toMatchObject({
      needs_person_review: true,
      element: { selector: '#buy' },
    });

    const unknown = await call('deploy_issues', { deploy_id: 'dep_unknown' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toContain('GET /api/v1/deploy/dep_unknown answered 404');
  }, 60_000);

  test('--api-key without --api-url is a usage mistake (2)', () => {
    const run = spawnSync(process.execPath, ['--import', tsx, main, 'mcp', '--api-key', 'a11y_x'], {
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--api-key needs --api-url');
  }, 60_000);
});
