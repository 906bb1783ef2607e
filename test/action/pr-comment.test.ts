import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { json, useScriptedApi, type Answer } from '../helpers/scripted-api.js';
import { gitHubRefusal } from '../fixtures/github/openapi.js';
import { webhookExample } from '../fixtures/github/test-app.js';
import { mockActionsCore } from '../helpers/actions-core.js';

// The toolkit is mocked (before the dynamic import of the code under test); the a11y-gate API and GitHub
// are real HTTP servers on loopback, GitHub's requests checked against GitHub's OpenAPI description.

const core = mockActionsCore();

const { run, triggerBody } = await import('../../action/run.js');
const { parseInputs } = await import('../../action/inputs.js');

const api = useScriptedApi();
const github = useScriptedApi();
const pr = webhookExample('pull_request', 'opened');
const SHA = pr.pull_request.head.sha;
const savedEnv = { ...process.env };
let dir: string;

function eventFile(name: string, payload: object): void {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(payload));
  process.env.GITHUB_EVENT_NAME = name;
  process.env.GITHUB_EVENT_PATH = file;
}

function deployEvent(checkRun: 'skipped' | 'pending') {
  return {
    id: 'dep_9',
    siteId: 'shop',
    sha: SHA,
    repository: 'acme/shop',
    status: 'failed',
    passed: false,
    reasons: [{ code: 'critical_issues', message: 'new critical issues: 1 > 0' }],
    scan_id: 'scn_1',
    baseline: { scan_id: 'scn_0', sha: null, strategy: 'base_branch', reason: '' },
    counts: { new: 1, existing: 0, fixed: 0, waived: 0, by_impact: {} },
    thresholds: [],
    new_issues: [
      {
        rule: 'label',
        impact: 'critical',
        message: 'Fix any of the following:\n  Form elements must have labels',
        selector: '#card',
        page_url: 'https://shop.example.com/checkout',
        help_url: null,
        source: { path: 'src/Card.tsx', line: 42 },
      },
    ],
    new_issues_total: 1,
    check_run: { status: checkRun, id: null, url: null, error: null },
    created_at: '2026-11-23T10:00:00.000Z',
  };
}

beforeEach(() => {
  core.calls.length = 0;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-gate-comment-'));
  core.inputs = {
    'api-url': api.baseUrl,
    'api-key': 'a11y_secret_key',
    'site-id': 'shop',
    'github-token': 'ghs_workflow_token',
  };
  process.env = {
    ...savedEnv,
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_REF: 'refs/pull/2/merge',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_STEP_SUMMARY: '/dev/null',
    GITHUB_API_URL: github.baseUrl,
    A11Y_GATE_RETRY_DELAY_MS: '1',
  };
  eventFile('pull_request', pr);
});
afterEach(() => {
  process.env = savedEnv;
  fs.rmSync(dir, { recursive: true, force: true });
});

const refusals = () =>
  github.seen.map((s) => gitHubRefusal(s.method, s.url, s.body)).filter((r): r is string => r !== undefined);
const fns = (fn: string) => core.calls.filter((c) => c.fn === fn).map((c) => String(c.args[0]));

test('the trigger names the pull request of the event', () => {
  const inputs = parseInputs((n) => core.inputs[n] ?? '');
  expect(triggerBody(inputs)).toMatchObject({ sha: SHA, pull_request: pr.number });
});

test('the fixes the pull request’s description claims go with the trigger, with who made them', () => {
  const [a, b] = ['a'.repeat(64), 'b'.repeat(64)];
  const body = `Fix the hero image.\n\na11y-gate fixes: ${a}, ${b}\na11y-gate agent: claude-code\n`;
  eventFile('pull_request', { ...pr, pull_request: { ...pr.pull_request, body } });
  expect(triggerBody(parseInputs((n) => core.inputs[n] ?? '')).claims).toEqual([
    { fingerprint: a, agent: 'claude-code' },
    { fingerprint: b, agent: 'claude-code' },
  ]);
  // The example's own description names none: nothing is sent.
  eventFile('pull_request', pr);
  expect(triggerBody(parseInputs((n) => core.inputs[n] ?? '')).claims).toBeUndefined();
});

test('merge_group: the merge-group head is gated against its base commit, falling back to the base branch', () => {
  const payload = webhookExample('merge_group', 'checks_requested');
  eventFile('merge_group', payload);
  const body = triggerBody(parseInputs((n) => core.inputs[n] ?? ''));
  expect(body).toMatchObject({
    sha: payload.merge_group.head_sha,
    baseline_sha: payload.merge_group.base_sha,
    baseline_fallback: 'base_branch',
    ref: payload.merge_group.head_ref,
  });
  expect(body.pull_request).toBeUndefined();
});

test('without the App: the comment is written with the workflow token, then updated by the next run', async () => {
  api.script = [json(201, deployEvent('skipped'))];
  github.script = [json(200, []), json(201, { id: 31 })];
  await run();
  expect(github.seen.map((s) => `${s.method} ${s.url.split('?')[0]}`)).toEqual([
    `GET /repos/acme/shop/issues/${pr.number}/comments`,
    `POST /repos/acme/shop/issues/${pr.number}/comments`,
  ]);
  // @actions/github's Octokit sends the workflow token in GitHub's `token` scheme.
  expect(github.seen[1].headers.authorization).toBe('token ghs_workflow_token');
  const written = (github.seen[1].body as { body: string }).body;
  expect(written.startsWith('<!-- a11y-gate:shop -->\n')).toBe(true);
  expect(written).toContain(`https://github.com/acme/shop/blob/${SHA}/src/Card.tsx#L42`);

  github.seen.length = 0;
  api.script = [json(201, deployEvent('skipped'))];
  github.script = [
    json(200, [{ id: 31, body: written, user: { login: 'github-actions[bot]', type: 'Bot' } }]),
    json(200, { id: 31 }),
  ];
  await run();
  expect(github.seen.map((s) => `${s.method} ${s.url.split('?')[0]}`)).toEqual([
    `GET /repos/acme/shop/issues/${pr.number}/comments`,
    'PATCH /repos/acme/shop/issues/comments/31',
  ]);
  expect(refusals()).toEqual([]);
  // The gate failed the step; the comment did not add a warning.
  expect(fns('warning')).toEqual([]);
});

test("a fork's read-only token (403): reported as a notice, never a failure of its own", async () => {
  const passing = { ...deployEvent('skipped'), passed: true, status: 'passed', reasons: [] };
  api.script = [json(201, passing)];
  const forbidden: Answer = (res) => {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Resource not accessible by integration' }));
  };
  github.script = [json(200, []), forbidden];
  await run();
  expect(fns('setFailed')).toEqual([]);
  expect(fns('notice').join('\n')).toContain("The workflow's token may not write to pull request");
  expect(refusals()).toEqual([]);
});

test('with the App posting (check run pending), the Action leaves the comment to it; comment: false writes none', async () => {
  api.script = [json(201, deployEvent('pending'))];
  await run();
  expect(github.seen).toEqual([]);
  expect(fns('info')).toContain('The GitHub App writes the pull request comment for this site.');

  core.inputs.comment = 'false';
  api.script = [json(201, deployEvent('skipped'))];
  await run();
  expect(github.seen).toEqual([]);
});
