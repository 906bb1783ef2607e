import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';

// `a11y-gate mcp` as a coding agent starts it: a process on stdio, driven by the MCP SDK's own client.
// The agent scans a folder served on loopback, explains a finding, changes the files and verifies its claims.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsx = pathToFileURL(path.join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const main = path.join(root, 'cli', 'main.ts');

const page = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n<head><title>${title}</title></head>\n<body>\n<main>\n<h1>${title}</h1>\n${body}\n</main>\n</body>\n</html>\n`;

interface Finding {
  fingerprint: string;
  rule: string;
  page_url: string;
  location: string | null;
}
interface Claim {
  fingerprint: string;
  outcome: string;
  before?: { text: string | null };
  after?: { text: string | null };
}

let site: string;
let client: Client;
const protocolErrors: Error[] = [];
const write = (file: string, html: string) => fs.writeFileSync(path.join(site, file), html);

beforeAll(async () => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-mcp-'));
  write('contrast.html', page('Contrast', '<p style="color:#aaa;background:#fff">Sale today</p>'));
  write('gone.html', page('Gone', '<img src="banner.png">'));
  write('alt.html', page('Alt', '<img src="logo.png">'));
  write('still.html', page('Still', '<button></button>'));
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  client.onerror = (e) => protocolErrors.push(e);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', tsx, main, 'mcp', '--chrome-path', CHROMIUM_PATH],
      env: { PATH: process.env.PATH ?? '' },
      cwd: site,
      stderr: 'ignore',
    }),
  );
}, 60_000);
afterAll(async () => {
  await client?.close();
  fs.rmSync(site, { recursive: true, force: true });
});

type Structured<T> = { structuredContent?: T; isError?: boolean; content: Array<{ text?: string }> };
const call = async <T>(name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Structured<T>;

describeWith(chromium, 'a11y-gate mcp over stdio', () => {
  test('lists its tools, each with input and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['explain', 'scan', 'verify']);
    for (const t of tools) {
      expect(t.description?.length).toBeGreaterThan(40);
      expect(t.outputSchema?.type).toBe('object');
    }
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'a11y-gate://procedures',
      'a11y-gate://wcag/criteria',
    ]);
    const criteria = await client.readResource({ uri: 'a11y-gate://wcag/criteria' });
    expect((criteria.contents[0] as { text: string }).text).toContain('Non-text Content');
  }, 60_000);

  test('a mistake is a tool error the agent reads, and the server goes on', async () => {
    const none = await call('scan', {});
    expect(none.isError).toBe(true);
    expect(none.content[0].text).toContain('give urls, or a folder to serve');
    const unknown = await call('explain', { fingerprint: 'nothing-like-this' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toContain('scan first');
    // Without --api-url, gate and deploy_issues are not listed, and a deploy event says how to get one.
    const deploy = await call('explain', { fingerprint: 'f'.repeat(64), deploy_id: 'dep_1' });
    expect(deploy.isError).toBe(true);
    expect(deploy.content[0].text).toContain('start a11y-gate mcp with --api-url and --api-key');
  }, 60_000);

  test('scan, explain, fix on disk, verify: verified, removed, needs a person, not fixed', async () => {
    const pages = ['/contrast.html', '/gone.html', '/alt.html', '/still.html'];
    const scanned = await call<{ findings: Finding[] }>('scan', { serve: site, urls: pages });
    expect(scanned.isError).toBeFalsy();
    const findings = scanned.structuredContent!.findings;
    const on = (file: string, rule: string) =>
      findings.find((f) => f.page_url.endsWith(file) && f.rule === rule)!;
    const [contrast, gone, alt, still] = [
      on('/contrast.html', 'color-contrast'),
      on('/gone.html', 'image-alt'),
      on('/alt.html', 'image-alt'),
      on('/still.html', 'button-name'),
    ];
    expect(alt.location).toBe('alt.html:7');

    const explained = await call<{
      summary: string;
      criteria: Array<{ id: string; title: string; procedure: unknown }>;
      fix: { steps: string[] };
      element: { location: string };
    }>('explain', { fingerprint: alt.fingerprint });
    const e = explained.structuredContent!;
    expect(e.summary).toBe('Images must have alternative text');
    expect(e.criteria).toContainEqual(expect.objectContaining({ id: '1.1.1', title: 'Non-text Content' }));
    expect(e.criteria.find((c) => c.id === '1.1.1')?.procedure).not.toBeNull();
    expect(e.fix.steps.join('\n')).toContain('Element does not have an alt attribute');
    expect(e.element.location).toBe('alt.html:7');

    // The agent's change: one fix, one element removed, one alt text a person must judge, one left as it was.
    write('contrast.html', page('Contrast', '<p style="color:#333;background:#fff">Sale today</p>'));
    write('gone.html', page('Gone', '<p>No banner.</p>'));
    write('alt.html', page('Alt', '<img src="logo.png" alt="image">'));
    const claims = [contrast, gone, alt, still].map((f) => f.fingerprint);
    const verified = await call<{ claims: Claim[]; done: boolean }>('verify', {
      claims: [...claims, 'f'.repeat(64)],
    });
    const answers = verified.structuredContent!;
    expect(answers.claims.map((c) => c.outcome)).toEqual([
      'verified',
      'removed',
      'needs_person',
      'not_fixed',
      'unknown',
    ]);
    expect(answers.claims[2].before?.text).toBeNull();
    expect(answers.claims[2].after?.text).toBe('image');
    expect(answers.done).toBe(false);
    expect(protocolErrors).toEqual([]);
  }, 240_000);
});
