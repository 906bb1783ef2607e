import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { DeployEvent } from '../../../core/gate/deploy-event.js';
import type { CreatedScan } from '../../helpers/api-types.js';
import { dbKinds, useHarness } from '../../helpers/harness.js';

// A hosted agent reaches the gate at /mcp with its API key, through the MCP SDK's own HTTP client.
const MAIN_SHA = 'a'.repeat(40);
const HEAD_SHA = 'b'.repeat(40);
const SITE = 'shop-web';

const missingAlt = {
  rule: 'image-alt',
  impact: 'critical',
  selector: '#hero > img',
  html: '<img src="hero.png">',
  message: 'Fix any of the following:\n  Element does not have an alt attribute',
  wcag: ['1.1.1'],
  source: { path: 'src/Hero.tsx', line: 12 },
};
const landmark = { rule: 'region', impact: 'moderate', selector: 'main' };

type ToolAnswer<T> = { structuredContent?: T; isError?: boolean; content: Array<{ text?: string }> };
interface GateAnswer {
  deploy_id: string;
  siteId: string;
  passed: boolean;
  reasons: Array<{ code: string; message: string }>;
  counts: { new: number; existing: number };
  new_by_impact: Record<string, number>;
}
interface IssuesAnswer {
  deploy_id: string;
  new_issues: Array<{ fingerprint: string; rule: string; selector: string; location: string | null }>;
  new_issues_total: number;
}

describe.each(dbKinds)('/mcp over Streamable HTTP (%s)', (db) => {
  // A small body limit, to see /mcp keep the API's.
  const h = useHarness({ db, org: 'acme', env: { BODY_LIMIT_MB: '1' } });
  const clients: Client[] = [];

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'hosted-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    clients.push(client);
    return client;
  }
  const call = async <T>(client: Client, name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer<T>;

  async function scan(sha: string, branch: string, issues: object[]) {
    const res = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: h.key,
      body: {
        siteId: SITE,
        url: 'https://shop.example',
        sha,
        branch,
        pages: [{ url: 'https://shop.example/', issues }],
      },
    });
    expect(res.status).toBe(201);
  }

  let agent: Client;
  beforeAll(async () => {
    await scan(MAIN_SHA, 'main', [landmark]);
    await scan(HEAD_SHA, 'feature/hero', [landmark, missingAlt]);
    agent = await connect(h.key);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  test('lists gate, deploy_issues and explain with their schemas, and the resources', async () => {
    const { tools } = await agent.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['deploy_issues', 'explain', 'gate']);
    for (const t of tools) expect(t.outputSchema?.type).toBe('object');
    const { resources } = await agent.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'a11y-gate://procedures',
      'a11y-gate://wcag/criteria',
    ]);
  });

  test('gate answers the decision; deploy_issues lists the fingerprints the REST API shows; explain reads one', async () => {
    const gate = await call<GateAnswer>(agent, 'gate', { siteId: SITE, sha: HEAD_SHA });
    expect(gate.isError).toBeFalsy();
    const decision = gate.structuredContent!;
    expect(decision).toMatchObject({ siteId: SITE, passed: false, counts: { new: 1, existing: 1 } });
    expect(decision.new_by_impact).toEqual({ critical: 1, serious: 0, moderate: 0, minor: 0 });
    expect(decision.reasons.map((r) => r.code)).toEqual(['critical_issues']);
    // The event is the deploy gate's own record: the REST API reads the same one.
    const rest = await h.request<DeployEvent>('GET', `/api/v1/deploy/${decision.deploy_id}`, { key: h.key });
    expect(rest.status).toBe(200);
    expect(rest.body.passed).toBe(false);

    const listed = await call<IssuesAnswer>(agent, 'deploy_issues', { deploy_id: decision.deploy_id });
    const issues = listed.structuredContent!;
    expect(issues.new_issues_total).toBe(1);
    expect(issues.new_issues.map((i) => i.fingerprint)).toEqual(
      rest.body.new_issues.map((i) => i.fingerprint),
    );
    expect(issues.new_issues[0]).toMatchObject({
      rule: 'image-alt',
      selector: '#hero > img',
      location: 'src/Hero.tsx:12',
    });

    const explained = await call<{ summary: string; element: { selector: string; location: string } }>(
      agent,
      'explain',
      { fingerprint: issues.new_issues[0].fingerprint, deploy_id: decision.deploy_id },
    );
    expect(explained.isError).toBeFalsy();
    expect(explained.structuredContent).toMatchObject({
      summary: 'Images must have alternative text',
      element: { selector: '#hero > img', location: 'src/Hero.tsx:12' },
    });
  });

  test("another org's site and deploy event are not found: a tool error that tells nothing of them", async () => {
    const own = await call<GateAnswer>(agent, 'gate', { siteId: SITE, sha: HEAD_SHA });
    const stranger = await connect(await h.createKey({ org: 'globex' }));
    const gate = await call(stranger, 'gate', { siteId: SITE, sha: HEAD_SHA });
    expect(gate).toMatchObject({ isError: true, content: [{ text: 'No such site.' }] });
    const issues = await call(stranger, 'deploy_issues', { deploy_id: own.structuredContent!.deploy_id });
    expect(issues).toMatchObject({ isError: true, content: [{ text: 'No such deploy event.' }] });
    const [{ count }] = await h
      .db('deploys')
      .where({ org: 'globex' })
      .count<{ count: number | string }[]>({ count: '*' });
    expect(Number(count)).toBe(0);
  });

  test('a read-only key reads a deploy event but cannot gate: the tool error names the missing scope', async () => {
    const own = await call<GateAnswer>(agent, 'gate', { siteId: SITE, sha: HEAD_SHA });
    const reader = await connect(await h.createKey({ org: 'acme', scopes: ['read'] }));
    const before = await h.db('deploys').count<{ count: number | string }[]>({ count: '*' });
    const gate = await call(reader, 'gate', { siteId: SITE, sha: HEAD_SHA });
    expect(gate).toMatchObject({
      isError: true,
      content: [{ text: 'This API key lacks the "gate" scope.' }],
    });
    expect(await h.db('deploys').count<{ count: number | string }[]>({ count: '*' })).toEqual(before);
    const issues = await call<IssuesAnswer>(reader, 'deploy_issues', {
      deploy_id: own.structuredContent!.deploy_id,
    });
    expect(issues.isError).toBeFalsy();
    expect(issues.structuredContent!.new_issues).toHaveLength(1);
  });

  test('no key, a wrong key: 401 problem+json before any MCP handling; GET is 405', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const auth of [{}, { authorization: 'Bearer a11y_not_a_key' }] as Record<string, string>[]) {
      const res = await fetch(`${h.url}/mcp`, {
        method: 'POST',
        headers: { ...headers, ...auth },
        body: initialize,
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as { code: string }).code).toBe('unauthorized');
    }
    await expect(connect('a11y_not_a_key')).rejects.toThrow(/401/);
    const get = await fetch(`${h.url}/mcp`, {
      headers: { authorization: `Bearer ${h.key}`, accept: 'text/event-stream' },
    });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  test("each request counts against the key's budget, and the body against the API's limit (413)", async () => {
    const listed = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
    });
    expect(listed.status).toBe(200);
    expect(Number(listed.headers.get('ratelimit-remaining'))).toBeLessThan(
      Number(listed.headers.get('ratelimit-limit')),
    );
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'explain', arguments: { rule: 'x'.repeat(1024 * 1024 + 10) } },
    });
    const res = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${h.key}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: big,
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { code: string }).code).toBe('payload_too_large');
  });
});
