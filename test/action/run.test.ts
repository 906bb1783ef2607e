import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScanRequest } from '../../client/wire-types.js';
import { json, useScriptedApi, type Answer } from '../helpers/scripted-api.js';
import { mockActionsCore } from '../helpers/actions-core.js';

// The toolkit is mocked (ESM: before the dynamic import of the code under test) so every call the action
// makes is observable; the API is a real HTTP server on loopback answering as the service's OpenAPI document says.

const core = mockActionsCore();

const { run, triggerBody } = await import('../../action/run.js');
const { parseInputs } = await import('../../action/inputs.js');

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'action');
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';

const api = useScriptedApi();

const savedEnv = { ...process.env };
beforeEach(() => {
  core.calls.length = 0;
  core.summary = '';
  core.inputs = {
    'api-url': api.baseUrl,
    'api-key': 'a11y_secret_key',
    'site-id': 'shop',
    'fail-on-critical': 'true',
    'fail-on-error': 'true',
  };
  process.env = {
    ...savedEnv,
    GITHUB_SHA: SHA,
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_STEP_SUMMARY: '/dev/null',
    A11Y_GATE_RETRY_DELAY_MS: '1',
  };
  delete process.env.GITHUB_EVENT_PATH;
  delete process.env.GITHUB_HEAD_REF;
});
afterEach(() => {
  process.env = savedEnv;
});

function problem(status: number, code: string, detail: string): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: code, status, detail, code, request_id: 'r' }));
  };
}

function deployEvent(overrides: Record<string, unknown> = {}) {
  return {
    id: 'dep_1',
    siteId: 'shop',
    sha: SHA,
    status: 'passed',
    passed: true,
    reasons: [],
    scan_id: 'scn_1',
    baseline: { scan_id: 'scn_0', sha: 'a'.repeat(40), strategy: 'base_branch' },
    counts: {
      new: 0,
      existing: 4,
      fixed: 1,
      waived: 0,
      by_impact: { critical: 0, serious: 0, moderate: 0, minor: 0 },
    },
    thresholds: [{ name: 'fail_on_critical', limit: 0, actual: 0, passed: true }],
    new_issues: [],
    new_issues_total: 0,
    check_run: { status: 'skipped', id: null, url: null },
    created_at: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

const failingEvent = () =>
  deployEvent({
    id: 'dep_2',
    status: 'failed',
    passed: false,
    reasons: [{ code: 'threshold_exceeded', message: '1 new critical issue (fail_on_critical)' }],
    counts: {
      new: 3,
      existing: 0,
      fixed: 0,
      waived: 0,
      by_impact: { critical: 1, serious: 1, moderate: 1, minor: 0 },
    },
    thresholds: [{ name: 'fail_on_critical', limit: 0, actual: 1, passed: false }],
    new_issues: [
      {
        rule: 'label',
        impact: 'critical',
        message: 'Form elements must have labels',
        selector: '#card-number',
        page_url: 'https://shop.example.com/checkout',
        help_url: 'https://dequeuniversity.com/rules/axe/4.14/label',
        source: { path: 'src/checkout/CardForm.tsx', line: 42 },
      },
      {
        rule: 'color-contrast',
        impact: 'serious',
        message: 'Elements must meet minimum color contrast ratio thresholds',
        selector: '.total > span',
        page_url: 'https://shop.example.com/checkout',
        source: { path: 'src/checkout/Total.tsx', line: 7 },
      },
      {
        rule: 'region',
        impact: 'moderate',
        message: 'Content in landmarks',
        selector: '.promo',
        page_url: 'https://shop.example.com/checkout',
      },
    ],
    new_issues_total: 3,
  });

function outputs(): Record<string, string> {
  return Object.fromEntries(
    core.calls.filter((c) => c.fn === 'setOutput').map((c) => [c.args[0], c.args[1]] as [string, string]),
  );
}
const failures = () => core.calls.filter((c) => c.fn === 'setFailed').map((c) => String(c.args[0]));
const of = (fn: string) => core.calls.filter((c) => c.fn === fn);

test('a passing gate: key masked first, thresholds sent, every output set, no failure', async () => {
  api.script = [json(201, deployEvent(), { location: '/api/v1/deploy/dep_1' })];
  await run();
  expect(core.calls[0]).toEqual({ fn: 'setSecret', args: ['a11y_secret_key'] });
  expect(api.seen).toHaveLength(1);
  expect(api.seen[0].url).toBe('/api/v1/deploy/trigger');
  expect(api.seen[0].headers.authorization).toBe('Bearer a11y_secret_key');
  expect(api.seen[0].headers['idempotency-key']).toMatch(/^a11y-gate-action-gate-[0-9a-f]{40}$/);
  expect(api.seen[0].body).toEqual({
    siteId: 'shop',
    sha: SHA,
    fail_on_critical: true,
    repository: 'acme/shop',
    ref: 'refs/heads/main',
  });
  expect(outputs()).toEqual({
    passed: 'true',
    'deploy-id': 'dep_1',
    'scan-id': 'scn_1',
    'new-issues': '0',
    'details-url': `${api.baseUrl}/api/v1/deploy/dep_1`,
  });
  expect(failures()).toEqual([]);
  expect(core.summary).toContain('## a11y-gate: `shop`');
  expect(core.summary).toContain('Accessibility gate passed');
  expect(core.summary).toContain('Compared with scan `scn_0`');
  expect(core.summary).toContain('No new accessibility issues.');
});

test('results are submitted first as one scan; a failing gate fails the step with reasons, annotations and summary', async () => {
  core.inputs.results = path.join(fixtures, 'native-scan.json');
  core.inputs['fail-on-serious'] = 'true';
  core.inputs['max-new-issues'] = '2';
  process.env.GITHUB_HEAD_REF = 'fix-checkout';
  api.script = [
    json(
      201,
      {
        id: 'scn_9',
        siteId: 'shop',
        url: 'https://shop.example.com/',
        summary: { pages: 1, issues: 3 },
        warnings: [{ code: 'shared_title', message: 'Every page has the title "Log in".', count: 1 }],
      },
      { location: '/api/v1/scans/scn_9' },
    ),
    json(201, { ...failingEvent(), scan_id: 'scn_9' }, { location: '/api/v1/deploy/dep_2' }),
  ];
  await run();

  expect(api.seen.map((s) => s.url)).toEqual(['/api/v1/scans', '/api/v1/deploy/trigger']);
  expect(api.seen[0].body).toMatchObject({
    url: 'https://shop.example.com/',
    siteId: 'shop',
    sha: SHA,
    branch: 'fix-checkout',
    run_attempt: 1,
    engine: { name: 'in-house-checker', version: '2.1.0' },
  });
  expect((api.seen[0].body as ScanRequest).pages[0].issues).toHaveLength(3);
  expect(api.seen[0].headers['idempotency-key']).toMatch(/^a11y-gate-action-scan-/);
  expect(api.seen[1].body).toMatchObject({
    fail_on_critical: true,
    fail_on_serious: true,
    max_total: 2,
    ref: 'refs/heads/fix-checkout',
  });

  expect(outputs()).toEqual({
    passed: 'false',
    'deploy-id': 'dep_2',
    'scan-id': 'scn_9',
    'new-issues': '3',
    'details-url': `${api.baseUrl}/api/v1/deploy/dep_2`,
  });
  expect(failures()).toHaveLength(1);
  expect(failures()[0]).toBe(
    `Accessibility gate failed for shop at ${SHA}:\n- 1 new critical issue (fail_on_critical) (threshold_exceeded)\n${api.baseUrl}/api/v1/deploy/dep_2`,
  );

  expect(of('error').map((c) => c.args)).toEqual([
    [
      'Form elements must have labels (label)\nPage: https://shop.example.com/checkout',
      { title: 'a11y-gate: label (critical)', file: 'src/checkout/CardForm.tsx', startLine: 42 },
    ],
    [
      expect.any(String),
      { title: 'a11y-gate: color-contrast (serious)', file: 'src/checkout/Total.tsx', startLine: 7 },
    ],
  ]);
  // The service's warning about the scan; the moderate issue has no location, so no annotation on the diff.
  expect(of('warning').map((c) => c.args)).toEqual([
    ['a11y-gate: Every page has the title "Log in". (shared_title)'],
  ]);
  expect(core.summary).toContain(
    '2 of 3 listed new issues are located in the repository; 2 annotated on the diff.',
  );

  expect(core.summary).toContain('Submitted scan `scn_9` (1 page, 3 issues) from 1 result file.');
  expect(of('info').map((c) => c.args[0])).toContain('Scan scn_9 submitted: 1 page, 3 issues');
  expect(core.summary).toContain('Accessibility gate failed');
  expect(core.summary).toContain('`threshold_exceeded`: 1 new critical issue');
  expect(core.summary).toContain('| `fail_on_critical` | 0 | 1 | ❌ fail |');
  expect(core.summary).toContain('#### New issues (3)');
  expect(core.summary).toContain('`src/checkout/CardForm.tsx:42`');
});

test('GitHub shows ten annotations per level and step: the rest are counted, and the summary says where', async () => {
  const issues = Array.from({ length: 60 }, (_, i) => ({
    rule: `r${i}`,
    impact: 'minor',
    message: `m${i}`,
    source: { path: `src/P${i}.tsx`, line: i + 1, column: 3, method: 'attribute' },
  }));
  api.script = [
    json(
      201,
      deployEvent({
        passed: true,
        counts: { new: 500, existing: 0, fixed: 0, waived: 0 },
        new_issues: issues,
        new_issues_total: 500,
      }),
    ),
  ];
  await run();
  expect(of('warning')).toHaveLength(10);
  expect(of('warning')[0].args[1]).toEqual({
    title: 'a11y-gate: r0 (minor)',
    file: 'src/P0.tsx',
    startLine: 1,
    startColumn: 3,
  });
  expect(of('info').map((c) => c.args[0])).toContain(
    '50 more located new issues are not annotated (GitHub shows 10 errors and warnings per step); the job summary lists every new issue.',
  );
  expect(core.summary).toContain(
    '60 of 60 listed new issues are located in the repository; 10 annotated on the diff; 50 more are listed below only',
  );
  expect(core.summary).toContain('#### New issues (500)');
  expect(core.summary).toContain('440 more new issues are not listed here');
  expect(outputs()['new-issues']).toBe('500');
});

test('gate: false submits the scan and asks no verdict: no trigger, passed left empty, the step succeeds', async () => {
  core.inputs.results = path.join(fixtures, 'native-scan.json');
  core.inputs.gate = 'false';
  api.script = [
    json(201, {
      id: 'scn_5',
      siteId: 'shop',
      url: 'https://shop.example.com/',
      summary: { pages: 1, issues: 3 },
      warnings: [],
    }),
  ];
  await run();
  expect(api.seen.map((s) => s.url)).toEqual(['/api/v1/scans']);
  expect(outputs()).toEqual({
    passed: '',
    'deploy-id': '',
    'scan-id': 'scn_5',
    'new-issues': '',
    'details-url': '',
  });
  expect(failures()).toEqual([]);
  expect(core.summary).toContain(
    '`gate` is `false`: the scan was submitted and the deploy gate was not asked.',
  );
});

test('gate: false with nothing to submit is a usage mistake', () => {
  expect(() =>
    parseInputs(
      (n) =>
        ({ 'api-url': 'https://a.test', 'api-key': 'k', 'site-id': 's', sha: SHA, gate: 'false' })[n] ?? '',
    ),
  ).toThrow(/gate.*only submits/);
});

test('an outage fails closed by default, with every output set', async () => {
  api.script = Array.from({ length: 5 }, () => problem(503, 'unavailable', 'Database down.'));
  await run();
  expect(api.seen).toHaveLength(5);
  expect(failures()).toEqual([
    'a11y-gate is unreachable, so the gate fails closed (set fail-on-error: false to only warn): POST /api/v1/deploy/trigger answered 503 unavailable: Database down. (after 5 attempts)',
  ]);
  expect(outputs()).toEqual({
    passed: 'false',
    'deploy-id': '',
    'scan-id': '',
    'new-issues': '',
    'details-url': '',
  });
  expect(core.summary).toContain('could not be evaluated');
});

test('fail-on-error: false turns an outage into a warning', async () => {
  core.inputs['fail-on-error'] = 'false';
  api.script = Array.from({ length: 5 }, () => problem(502, 'bad_gateway', 'Proxy error.'));
  await run();
  expect(failures()).toEqual([]);
  expect(of('warning').map((c) => c.args[0])).toEqual([
    expect.stringMatching(
      /^a11y-gate is unreachable; the gate was NOT evaluated \(fail-on-error is false\): POST/,
    ),
  ]);
  expect(outputs().passed).toBe('false');
  expect(core.summary).toContain('was skipped');
});

test('fail-on-error: false never hides a rejected request (a wrong key, bad results)', async () => {
  core.inputs['fail-on-error'] = 'false';
  api.script = [problem(401, 'unauthorized', 'The API key is not valid.')];
  await run();
  expect(api.seen).toHaveLength(1);
  expect(failures()).toEqual([
    'POST /api/v1/deploy/trigger answered 401 unauthorized: The API key is not valid.',
  ]);
});

test('an outage after the scan was stored still reports its id', async () => {
  core.inputs.results = path.join(fixtures, 'axe-result.json');
  api.script = [
    json(201, { id: 'scn_5', siteId: 'shop', url: 'https://shop.example.com/' }),
    ...Array.from({ length: 5 }, () => problem(500, 'internal', 'Boom.')),
  ];
  await run();
  expect(outputs()['scan-id']).toBe('scn_5');
  expect(failures()).toHaveLength(1);
});

test('a bad input fails naming it, before any request, and still sets the outputs', async () => {
  core.inputs['max-new-issues'] = 'lots';
  await run();
  expect(api.seen).toHaveLength(0);
  expect(core.calls[0]).toEqual({ fn: 'setSecret', args: ['a11y_secret_key'] });
  expect(failures()).toEqual(['Input "max-new-issues" must be a non-negative integer, got "lots"']);
  expect(outputs().passed).toBe('false');
  expect(core.summary).toContain('Input "max-new-issues" must be a non-negative integer');
});

test('results that match nothing fail naming the input, even with fail-on-error: false', async () => {
  core.inputs.results = path.join(fixtures, 'no-such-*.json');
  core.inputs['fail-on-error'] = 'false';
  await run();
  expect(api.seen).toHaveLength(0);
  expect(failures()[0]).toMatch(/^Input "results" matched no files/);
});

test('plain http to a remote host is warned about (the key would travel unencrypted)', async () => {
  core.inputs['api-url'] = 'http://a11y-gate.invalid';
  core.inputs['fail-on-error'] = 'false';
  await run();
  expect(of('warning')[0].args[0]).toBe(
    'Input "api-url" uses plain http: the API key travels unencrypted to a11y-gate.invalid.',
  );
  expect(of('warning')[1].args[0]).toMatch(/^a11y-gate is unreachable; the gate was NOT evaluated/);
});

test('triggerBody leaves empty optional thresholds to the site settings', () => {
  const inputs = parseInputs(
    (n) => ({ 'api-url': 'https://a', 'api-key': 'k', 'site-id': 's', 'fail-on-critical': 'false' })[n] ?? '',
    { GITHUB_SHA: SHA },
  );
  expect(triggerBody(inputs)).toEqual({ siteId: 's', sha: SHA, fail_on_critical: false });
});

test('a 2xx JSON answer that is not a deploy event fails naming what is wrong, even with fail-on-error: false', async () => {
  core.inputs['fail-on-error'] = 'false';
  api.script = [json(200, { ok: true, message: 'hello from another service' })];
  await run();
  expect(failures()).toEqual([
    'POST /api/v1/deploy/trigger answered 200 with JSON that is not a deploy event (no "passed"): is api-url the a11y-gate service?',
  ]);
  expect(outputs()).toEqual({
    passed: 'false',
    'deploy-id': '',
    'scan-id': '',
    'new-issues': '',
    'details-url': '',
  });
});

test('max-new-issues on a site whose gate counts every issue (new_only: false) says so', async () => {
  core.inputs['max-new-issues'] = '0';
  const settings = {
    fail_on_critical: true,
    fail_on_serious: false,
    max_critical: null,
    max_serious: null,
    max_moderate: null,
    max_minor: null,
    max_total: 0,
    new_only: false,
    include_incomplete: false,
  };
  api.script = [
    json(
      201,
      deployEvent({
        passed: false,
        status: 'failed',
        settings,
        reasons: [{ code: 'max_total_exceeded', message: '4 issues, at most 0 allowed (max_total)' }],
        thresholds: [{ name: 'max_total', limit: 0, actual: 4, passed: false }],
      }),
    ),
  ];
  await run();
  expect(of('warning').map((c) => c.args[0])).toEqual([
    'The site\'s gate settings have new_only: false, so "max-new-issues" and "fail-on-critical"/"fail-on-serious" counted every issue of the commit, not only new ones (PATCH /api/v1/sites/shop to change it).',
  ]);
  expect(failures()).toHaveLength(1);
});

test('behind a path prefix (api-url https://host/prefix), the service-relative Location keeps the prefix in details-url', async () => {
  core.inputs['api-url'] = `${api.baseUrl}/a11y/api/v1`;
  api.script = [json(201, deployEvent(), { location: '/api/v1/deploy/dep_1' })];
  await run();
  expect(api.seen[0].url).toBe('/a11y/api/v1/deploy/trigger');
  expect(outputs()['details-url']).toBe(`${api.baseUrl}/a11y/api/v1/deploy/dep_1`);
  expect(core.summary).toContain(`(${api.baseUrl}/a11y/api/v1/deploy/dep_1)`);
});

test('a service with a public URL links its console page: details-url and the summary point there', async () => {
  api.script = [
    json(201, deployEvent(), {
      location: '/api/v1/deploy/dep_1',
      link: '<https://a11y.corp.example/deploys/dep_1>; rel="alternate"; type="text/html"',
    }),
  ];
  await run();
  expect(outputs()['details-url']).toBe('https://a11y.corp.example/deploys/dep_1');
  expect(core.summary).toContain('(https://a11y.corp.example/deploys/dep_1)');
});

test('a Link that is not an http(s) page for people is ignored: details-url stays the API address', async () => {
  api.script = [
    json(201, deployEvent(), {
      location: '/api/v1/deploy/dep_1',
      link: '<javascript:alert(1)>; rel="alternate"; type="text/html", <https://x.example/next>; rel="next"',
    }),
  ];
  await run();
  expect(outputs()['details-url']).toBe(`${api.baseUrl}/api/v1/deploy/dep_1`);
});

test('text from result files cannot start a workflow command in the log (untrusted artifacts on workflow_run)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-inject-'));
  fs.copyFileSync(path.join(fixtures, 'axe-result.json'), path.join(dir, 'a.json'));
  const evil = {
    url: 'https://shop.example.com/',
    engine: { name: 'x\n::set-output name=passed::true\n::stop-commands::tok', version: '1' },
    pages: [{ url: 'https://shop.example.com/', issues: [] }],
  };
  fs.writeFileSync(path.join(dir, 'b.json'), JSON.stringify(evil));
  fs.writeFileSync(path.join(dir, 'c\n::add-mask::x.json'), JSON.stringify(evil));
  core.inputs.results = path.join(dir, '*.json');
  api.script = [
    json(201, { id: 'scn_5', siteId: 'shop', url: 'https://shop.example.com/' }),
    json(201, deployEvent()),
  ];
  await run();
  const logged = of('info').map((c) => String(c.args[0]));
  expect(logged.some((l) => l.includes('results from x'))).toBe(true);
  for (const line of logged.join('\n').split('\n')) expect(line).not.toMatch(/^::/);
});

test('results in which no page was tested (every pa11y-ci URL failed to load) fail the step instead of gating an empty scan', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-empty-'));
  fs.writeFileSync(
    path.join(dir, 'pa11y-ci.json'),
    JSON.stringify({
      total: 2,
      passes: 0,
      errors: 2,
      results: {
        'https://shop.example.com/': [
          { message: 'net::ERR_CONNECTION_REFUSED at https://shop.example.com/' },
        ],
        'https://shop.example.com/cart': [
          { message: 'net::ERR_CONNECTION_REFUSED at https://shop.example.com/cart' },
        ],
      },
    }),
  );
  core.inputs.results = path.join(dir, '*.json');
  core.inputs.url = 'https://shop.example.com/';
  core.inputs['fail-on-error'] = 'false';
  await run();
  expect(api.seen).toHaveLength(0);
  expect(failures()).toEqual([
    'Input "results" holds no tested page (1 file): an empty scan would pass the gate without testing anything',
  ]);
  expect(outputs().passed).toBe('false');
});

test('when the gate judged another scan than the one this step submitted (a later upload for the commit), the step says so', async () => {
  core.inputs.results = path.join(fixtures, 'axe-result.json');
  api.script = [
    json(201, { id: 'scn_mine', siteId: 'shop', url: 'https://shop.example.com/' }),
    json(201, deployEvent({ scan_id: 'scn_theirs' })),
  ];
  await run();
  expect(of('warning').map((c) => c.args[0])).toEqual([
    `The gate judged scan scn_theirs, not scn_mine that this step submitted: another scan of ${SHA} for shop arrived in between (a matrix job?), and the gate judges a commit's latest scan.`,
  ]);
  expect(outputs()['scan-id']).toBe('scn_theirs');
});
