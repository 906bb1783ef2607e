import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScanList } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import { dbKinds, startHarness, useHarness } from '../helpers/harness.js';

// The committed bundle (dist/index.js) as GitHub runs it: a node process with INPUT_* variables and the
// GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, against the real API server on loopback.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bundle = path.join(repoRoot, 'dist', 'index.js');
const fixtures = path.join(repoRoot, 'test', 'fixtures', 'action');

interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** Parses the `name<<delimiter` blocks @actions/core appends to GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    out[m[1]] = value.join('\n');
  }
  return out;
}

let runCounter = 0;

async function runStep(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
  files: Record<string, unknown> = {},
): Promise<StepResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-action-step-'));
  const outputFile = path.join(dir, 'output');
  const summaryFile = path.join(dir, 'summary.md');
  fs.writeFileSync(outputFile, '');
  fs.writeFileSync(summaryFile, '');
  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(path.join(workspace, 'a11y-results'), { recursive: true });
  for (const f of ['native-scan.json', 'axe-result.json', 'pa11y-ci.json']) {
    fs.copyFileSync(path.join(fixtures, f), path.join(workspace, 'a11y-results', f));
  }
  for (const [name, data] of Object.entries(files))
    fs.writeFileSync(path.join(workspace, name), JSON.stringify(data));
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_RUN_ID: String(process.pid * 1000 + ++runCounter),
    GITHUB_RUN_ATTEMPT: '1',
    A11Y_GATE_RETRY_DELAY_MS: '5',
    ...env,
  };
  for (const [name, value] of Object.entries(inputs)) childEnv[`INPUT_${name.toUpperCase()}`] = value;
  const child = spawn(process.execPath, [bundle], {
    cwd: workspace,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const result = {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(fs.readFileSync(outputFile, 'utf8')),
    summary: fs.readFileSync(summaryFile, 'utf8'),
  };
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

const SHA_BASE = '1111111111111111111111111111111111111111';
const SHA_BAD = '2222222222222222222222222222222222222222';
const SHA_GOOD = '3333333333333333333333333333333333333333';

test('dist/index.js holds the action, the client and the shared kernel (core/): no server code', () => {
  const text = fs.readFileSync(bundle, 'utf8');
  // ncc keeps each bundled module's path in a comment.
  const local = [
    ...new Set(text.match(/\.\/(?:action|app|api|server|client|core|scanner|cli)\/[\w/.-]+\.ts/g)),
  ].sort();
  expect(local.filter((m) => !/^\.\/(action|client|scanner|core)\//.test(m))).toEqual([]);
  // The report, the pull request comment the Action writes without the App, the fork hand-off's layout, and
  // the SARIF's partialFingerprints: the service's own code, from the kernel.
  expect(local).toEqual(
    expect.arrayContaining([
      './core/gate/report.ts',
      './core/github/fork-artifact.ts',
      './core/github/pr-comment.ts',
      './core/matching/fingerprint.ts',
    ]),
  );
  const packages = [
    ...new Set((text.match(/\.\/node_modules\/(?:@[\w.-]+\/)?[\w.-]+/g) ?? []).map((m) => m.slice(15))),
  ];
  for (const name of packages) {
    // The toolkit, the HTML parser with its selector engine that locate findings in static files, the
    // artifact client of the fork hand-off (its blob storage, protobuf and zip writer, octokit), and what the
    // gate without a service reads with: zod (baseline and result files), yauzl (a baseline artifact's zip),
    // and the static server of `serve` (sirv with its three helpers).
    expect(name).toMatch(
      /^(zod|yauzl|pend|@actions\/[\w-]+|undici|tunnel|minimatch|brace-expansion|balanced-match|parse5|parse5-htmlparser2-tree-adapter|entities|domhandler|domelementtype|domutils|dom-serializer|css-select|css-what|nth-check|boolbase|@azure\/[\w-]+|@typespec\/ts-http-runtime|@protobuf-ts\/[\w-]+|@octokit\/[\w-]+|@nodable\/entities|jwt-decode|archiver|unzip-stream|universal-user-agent|before-after-hook|json-with-bigint|bottleneck|fast-xml-builder|fast-xml-parser|xml-naming|path-expression-matcher|anynum|strnum|is-unsafe|sirv|totalist|mrmime|@polka\/url)$/,
    );
  }
});

describe.each(dbKinds)('details-url under PUBLIC_URL, the bundle against the real server (%s)', (db) => {
  test('details-url is the console page of the deploy event, which asks a person to sign in', async () => {
    const h = await startHarness({ db, env: { PUBLIC_URL: 'https://a11y.corp.example' } });
    try {
      const key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate'] });
      const clean = {
        url: 'https://shop.example.com/',
        pages: [{ url: 'https://shop.example.com/', issues: [] }],
      };
      const step = await runStep(
        { 'api-url': h.url, 'api-key': key, 'site-id': 'shop', sha: SHA_GOOD, results: 'clean.json' },
        {},
        { 'clean.json': clean },
      );
      expect(step.code).toBe(0);
      const id = step.outputs['deploy-id'];
      expect(id).toMatch(/^dep_/);
      expect(step.outputs['details-url']).toBe(`https://a11y.corp.example/deploys/${id}`);
      expect(step.summary).toContain(`(https://a11y.corp.example/deploys/${id})`);
      const opened = await fetch(`${h.url}/deploys/${id}`, { redirect: 'manual' });
      expect(opened.headers.get('location')).toBe(`/sign-in?next=${encodeURIComponent(`/deploys/${id}`)}`);
    } finally {
      await h.close();
    }
  });
});

describe.each(dbKinds)('the bundle as a process against the real server (%s)', (db) => {
  const h = useHarness({ db });
  let key: string;
  let inputs: Record<string, string>;

  beforeAll(async () => {
    key = await h.createKey({ name: 'ci', scopes: ['ingest', 'gate'] });
    inputs = {
      'api-url': h.url,
      'api-key': key,
      'site-id': 'shop',
      'fail-on-critical': 'true',
      'fail-on-error': 'true',
    };
    // The base branch's scan: the axe result (its issues are the baseline, "existing" for later commits).
    const base = await runStep({ ...inputs, sha: SHA_BASE, results: 'a11y-results/axe-result.json' });
    // Every test below builds on this scan: when it is missing, say why (the step's log) instead of "".
    if (!/^scn_/.test(base.outputs['scan-id'] ?? '')) {
      throw new Error(`the baseline step stored no scan (exit ${base.code}):\n${base.stdout}${base.stderr}`);
    }
    expect(base.stderr).toBe('');
  });

  test('a regression fails the job: exit 1, passed=false, annotations on source lines, summary file', async () => {
    const step = await runStep(
      {
        ...inputs,
        sha: SHA_BAD,
        results: 'a11y-results/*.json\n!a11y-results/pa11y-ci.json',
        url: 'https://shop.example.com/',
      },
      { GITHUB_HEAD_REF: 'checkout-form', GITHUB_REF: 'refs/pull/12/merge' },
    );
    expect(step.code).toBe(1);
    expect(step.stdout).toContain(`::add-mask::${key}`);
    expect(step.outputs.passed).toBe('false');
    expect(step.outputs['deploy-id']).toMatch(/^dep_/);
    expect(step.outputs['scan-id']).toMatch(/^scn_/);
    expect(step.outputs['details-url']).toBe(`${h.url}/api/v1/deploy/${step.outputs['deploy-id']}`);

    const event = await h.request<DeployEvent>('GET', `/api/v1/deploy/${step.outputs['deploy-id']}`, { key });
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({
      siteId: 'shop',
      sha: SHA_BAD,
      passed: false,
      ref: 'refs/heads/checkout-form',
      repository: 'acme/shop',
    });
    expect(event.body.scan_id).toBe(step.outputs['scan-id']);
    expect(step.outputs['new-issues']).toBe(String(event.body.counts.new));
    // The native file's issues are new (the baseline had only the axe page): critical label, serious contrast.
    expect(event.body.counts.new).toBeGreaterThanOrEqual(2);
    expect(event.body.reasons.map((r) => r.code)).toContain('critical_issues');

    expect(step.stdout).toMatch(
      /^::error title=a11y-gate%3A label \(critical\),file=src\/checkout\/CardForm.tsx,line=42::Form elements must have labels/m,
    );
    expect(step.stdout).toMatch(
      /^::error title=a11y-gate%3A color-contrast \(serious\),file=src\/checkout\/Total.tsx,line=7::/m,
    );
    expect(step.stdout).toMatch(/^::error::Accessibility gate failed for shop at 2{40}:%0A- /m);
    expect(step.summary).toContain('## a11y-gate: `shop`');
    expect(step.summary).toMatch(/Submitted scan `scn_\w+` \(2 pages, \d+ issues\) from 2 result files\./);
    expect(step.summary).toContain('Accessibility gate failed');
    expect(step.summary).toContain('| `fail_on_critical` | 0 |');
    expect(step.summary).toContain('#### New issues (');
    expect(step.summary).toContain('`src/checkout/CardForm.tsx:42`');
  });

  test('a clean commit passes: exit 0, passed=true, nothing annotated', async () => {
    const clean = {
      url: 'https://shop.example.com/',
      pages: [{ url: 'https://shop.example.com/', issues: [] }],
    };
    const step = await runStep(
      { ...inputs, sha: SHA_GOOD, results: 'clean.json' },
      {},
      { 'clean.json': clean },
    );
    expect(step.stdout).not.toMatch(/^::(error|warning)/m);
    expect(step.code).toBe(0);
    expect(step.outputs).toEqual({
      passed: 'true',
      'deploy-id': expect.stringMatching(/^dep_/) as unknown,
      'scan-id': expect.stringMatching(/^scn_/) as unknown,
      'new-issues': '0',
      'details-url': expect.stringContaining('/api/v1/deploy/dep_') as unknown,
    });
    expect(step.summary).toContain('Accessibility gate passed');
    expect(step.summary).toContain('No new accessibility issues.');
  });

  test('the step run again in the same run attempt replays the scan instead of storing it twice', async () => {
    const sha = '4444444444444444444444444444444444444444';
    const env = { GITHUB_RUN_ID: '777000111', GITHUB_RUN_ATTEMPT: '1' };
    const first = await runStep({ ...inputs, sha, results: 'a11y-results/pa11y-ci.json' }, env);
    const again = await runStep({ ...inputs, sha, results: 'a11y-results/pa11y-ci.json' }, env);
    expect(again.outputs['scan-id']).toBe(first.outputs['scan-id']);
    expect(again.outputs['deploy-id']).toBe(first.outputs['deploy-id']);
    expect(again.summary).toContain('replayed: already submitted by this run');
    // pa11y-ci's page that failed to load is reported as a warning, not submitted as a clean page.
    expect(first.stdout).toMatch(
      /^::warning::a11y-results\/pa11y-ci.json: https:\/\/shop.example.com\/account was not tested/m,
    );
    const reader = await h.createKey({ name: 'reader', scopes: ['read'] });
    const list = await h.request<ScanList>('GET', `/api/v1/scans?siteId=shop&sha=${sha}`, { key: reader });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    // A re-run of the job is a new attempt: it stores its own scan.
    const rerun = await runStep(
      { ...inputs, sha, results: 'a11y-results/pa11y-ci.json' },
      { ...env, GITHUB_RUN_ATTEMPT: '2' },
    );
    expect(rerun.outputs['scan-id']).not.toBe(first.outputs['scan-id']);
  });

  test('a browser matrix in one run attempt: each job gates its own scan (no replay of the other job’s decision)', async () => {
    const sha = '6666666666666666666666666666666666666666';
    const env = { GITHUB_RUN_ID: '777000222', GITHUB_RUN_ATTEMPT: '1' };
    const clean = {
      url: 'https://shop.example.com/',
      pages: [{ url: 'https://shop.example.com/', issues: [] }],
    };
    const chromium = await runStep({ ...inputs, sha, results: 'chromium.json' }, env, {
      'chromium.json': clean,
    });
    expect(chromium.code).toBe(0);
    // Same run, same attempt, same thresholds: only the results differ (Firefox finds a critical issue).
    const firefox = await runStep({ ...inputs, sha, results: 'a11y-results/native-scan.json' }, env);
    expect(firefox.outputs['scan-id']).not.toBe(chromium.outputs['scan-id']);
    expect(firefox.outputs['deploy-id']).not.toBe(chromium.outputs['deploy-id']);
    expect(firefox.outputs.passed).toBe('false');
    expect(firefox.code).toBe(1);
  });

  test('a commit without any scan fails the gate with no_scan', async () => {
    const step = await runStep({ ...inputs, sha: '5555555555555555555555555555555555555555' });
    expect(step.code).toBe(1);
    expect(step.outputs.passed).toBe('false');
    expect(step.outputs['scan-id']).toBe('');
    expect(step.stdout).toMatch(/^::error::Accessibility gate failed for shop at 5{40}:%0A- .*\(no_scan\)/m);
  });

  test('a wrong key fails with the service detail, even with fail-on-error: false', async () => {
    const step = await runStep({
      ...inputs,
      'api-key': 'a11y_wrong',
      sha: SHA_GOOD,
      'fail-on-error': 'false',
    });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(/^::error::POST \/api\/v1\/deploy\/trigger answered 401 unauthorized: /m);
    expect(step.outputs.passed).toBe('false');
  });

  test('bad results fail naming the input or the file', async () => {
    const none = await runStep({ ...inputs, sha: SHA_GOOD, results: 'nothing/*.json' });
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/^::error::Input "results" matched no files/m);
    const odd = await runStep(
      { ...inputs, sha: SHA_GOOD, results: 'odd.json' },
      {},
      { 'odd.json': { hello: 'world' } },
    );
    expect(odd.code).toBe(1);
    expect(odd.stdout).toMatch(/^::error::odd.json: expected an axe-core result object/m);
  });
});

describe('the bundle as a process when the service is unreachable', () => {
  let closedUrl: string;
  beforeAll(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  const inputs = () => ({
    'api-url': closedUrl,
    'api-key': 'a11y_key',
    'site-id': 'shop',
    sha: SHA_GOOD,
    'fail-on-critical': 'true',
  });

  test('fails closed by default', async () => {
    const step = await runStep({ ...inputs(), 'fail-on-error': 'true' });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(
      /^::error::a11y-gate is unreachable, so the gate fails closed .*ECONNREFUSED/m,
    );
    expect(step.outputs).toEqual({
      passed: 'false',
      'deploy-id': '',
      'scan-id': '',
      'new-issues': '',
      'details-url': '',
    });
    expect(step.summary).toContain('could not be evaluated');
  });

  test('only warns with fail-on-error: false', async () => {
    const step = await runStep({ ...inputs(), 'fail-on-error': 'false' });
    expect(step.code).toBe(0);
    expect(step.stdout).toMatch(/^::warning::a11y-gate is unreachable; the gate was NOT evaluated/m);
    expect(step.stdout).not.toMatch(/^::error/m);
    expect(step.outputs.passed).toBe('false');
    expect(step.summary).toContain('was skipped');
  });

  test('a bad input fails naming it', async () => {
    const step = await runStep({ ...inputs(), 'fail-on-serious': 'maybe' });
    expect(step.code).toBe(1);
    expect(step.stdout).toMatch(/^::error::Input "fail-on-serious" must be true or false, got "maybe"/m);
  });
});
