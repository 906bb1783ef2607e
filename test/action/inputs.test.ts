import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { idempotencyKey } from '../../action/idempotency-key.js';
import { InputError, parseInputs, type GetInput } from '../../action/inputs.js';
import { composeScan } from '../../action/scan-step.js';

function getter(values: Record<string, string>): GetInput {
  return (name) => values[name] ?? '';
}

const base = { 'api-url': 'https://a11y.example.com', 'api-key': 'a11y_key', 'site-id': 'shop-web' };
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';

function expectInputError(fn: () => unknown, input: string, pattern: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(InputError);
  expect((caught as InputError).input).toBe(input);
  expect((caught as Error).message).toMatch(new RegExp(`^Input "${input}" `));
  expect((caught as Error).message).toMatch(pattern);
}

describe('scope', () => {
  const env = { GITHUB_SHA: SHA, GITHUB_REF: 'refs/heads/feature' };
  const parse = (values: Record<string, string>) => parseInputs(getter({ ...base, ...values }), env);

  test('a urls-file (the pages a pull request touched) makes the scan partial, unless scope says full', () => {
    expect(parse({ 'urls-file': 'touched.txt' }).scope).toBe('partial');
    expect(parse({ 'urls-file': 'touched.txt', scope: 'full' }).scope).toBe('full');
    expect(parse({ urls: 'https://shop.example/' }).scope).toBe('full');
    expect(parse({ urls: 'https://shop.example/', scope: 'partial' }).scope).toBe('partial');
    // Result files of another scanner: partial only when the input says so.
    expect(parse({ results: 'a11y/*.json', scope: 'partial' }).scope).toBe('partial');
    expectInputError(() => parse({ results: 'a11y/*.json', scope: 'some' }), 'scope', /full or partial/);
  });

  test('the scan body says partial, and nothing when full (the service default)', () => {
    const loaded = {
      scan: { url: 'https://shop.example/', siteId: 'shop-web', sha: SHA, pages: [] },
      files: [],
      warnings: [],
      notes: [],
    };
    const partial = parse({ results: 'a11y/*.json', scope: 'partial' });
    expect(composeScan(partial, structuredClone(loaded), null).scope).toBe('partial');
    const full = parse({ results: 'a11y/*.json' });
    expect(composeScan(full, structuredClone(loaded), null)).not.toHaveProperty('scope');
  });
});

describe('parseInputs', () => {
  test('defaults: PR-less push takes GITHUB_SHA, the pushed branch and GITHUB_REPOSITORY', () => {
    const inputs = parseInputs(getter(base), {
      GITHUB_SHA: SHA.toUpperCase(),
      GITHUB_REF: 'refs/heads/main',
      GITHUB_REF_NAME: 'main',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: '123',
      GITHUB_RUN_ATTEMPT: '2',
    });
    expect(inputs).toMatchObject({
      apiUrl: 'https://a11y.example.com',
      apiKey: 'a11y_key',
      siteId: 'shop-web',
      sha: SHA,
      results: null,
      url: null,
      failOnCritical: true,
      failOnSerious: null,
      maxNewIssues: null,
      repository: 'acme/shop',
      failOnError: true,
      branch: 'main',
      ref: 'refs/heads/main',
      runId: '123',
      runAttempt: 2,
      retryDelayMs: null,
    });
  });

  test('on a pull request the head sha and head branch win over the merge commit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-action-'));
    const eventPath = path.join(dir, 'event.json');
    fs.writeFileSync(
      eventPath,
      JSON.stringify({ pull_request: { head: { sha: 'abcdef1234567', ref: 'fix-alt' } } }),
    );
    const inputs = parseInputs(getter(base), {
      GITHUB_SHA: SHA,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_HEAD_REF: 'fix-alt',
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_REF_NAME: '7/merge',
    });
    expect(inputs.sha).toBe('abcdef1234567');
    expect(inputs.branch).toBe('fix-alt');
    expect(inputs.ref).toBe('refs/heads/fix-alt');
    // An explicit input beats both.
    expect(parseInputs(getter({ ...base, sha: 'ABCDEF0' }), { GITHUB_EVENT_PATH: eventPath }).sha).toBe(
      'abcdef0',
    );
  });

  test('on workflow_run (the usual way to give fork pull requests the secrets) the triggering run’s head is judged, not the default branch', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-action-'));
    const eventPath = path.join(dir, 'event.json');
    fs.writeFileSync(
      eventPath,
      JSON.stringify({
        workflow_run: { head_sha: 'abcdef1234567890abcdef1234567890abcdef12', head_branch: 'fork-fix' },
      }),
    );
    const inputs = parseInputs(getter(base), {
      GITHUB_EVENT_NAME: 'workflow_run',
      GITHUB_EVENT_PATH: eventPath,
      // GITHUB_SHA and GITHUB_REF name the default branch's latest commit on workflow_run.
      GITHUB_SHA: SHA,
      GITHUB_REF: 'refs/heads/main',
    });
    expect(inputs.sha).toBe('abcdef1234567890abcdef1234567890abcdef12');
    expect(inputs.branch).toBe('fork-fix');
    expect(inputs.ref).toBe('refs/heads/fork-fix');
  });

  test('a tag push has no branch; an unreadable event file only loses the PR default', () => {
    const inputs = parseInputs(getter(base), {
      GITHUB_SHA: SHA,
      GITHUB_REF: 'refs/tags/v1.2.0',
      GITHUB_REF_NAME: 'v1.2.0',
      GITHUB_EVENT_PATH: '/nonexistent/event.json',
    });
    expect(inputs.branch).toBeNull();
    expect(inputs.ref).toBe('refs/tags/v1.2.0');
    expect(inputs.sha).toBe(SHA);
  });

  test('api-url: trailing slash and /api/v1 are dropped', () => {
    for (const url of ['https://a.example/', 'https://a.example/api/v1', 'https://a.example/api/v1/']) {
      expect(parseInputs(getter({ ...base, 'api-url': url }), { GITHUB_SHA: SHA }).apiUrl).toBe(
        'https://a.example',
      );
    }
    expect(
      parseInputs(getter({ ...base, 'api-url': 'http://h:8080/gate/' }), { GITHUB_SHA: SHA }).apiUrl,
    ).toBe('http://h:8080/gate');
  });

  test('booleans, numbers and the optional thresholds', () => {
    const inputs = parseInputs(
      getter({
        ...base,
        'fail-on-critical': 'False',
        'fail-on-serious': 'TRUE',
        'max-new-issues': '0',
        'fail-on-error': 'false',
        results: 'reports/*.json',
        url: 'https://shop.example.com',
        repository: 'acme/other',
      }),
      { GITHUB_SHA: SHA, GITHUB_REPOSITORY: 'acme/shop', A11Y_GATE_RETRY_DELAY_MS: '5' },
    );
    expect(inputs).toMatchObject({
      failOnCritical: false,
      failOnSerious: true,
      maxNewIssues: 0,
      failOnError: false,
      results: 'reports/*.json',
      url: 'https://shop.example.com',
      repository: 'acme/other',
      retryDelayMs: 5,
    });
  });

  test.each([
    [{ 'api-url': '' }, 'api-url', /is required/],
    [{ 'api-url': 'a11y.example.com' }, 'api-url', /absolute http\(s\) URL/],
    [{ 'api-url': 'ftp://a11y.example.com' }, 'api-url', /http\(s\) URL/],
    [{ 'api-url': 'https://a.example/?x=1' }, 'api-url', /query or fragment/],
    // fetch refuses such a URL with a message that quotes it, password included.
    [{ 'api-url': 'https://ci:hunter2@a.example/' }, 'api-url', /^[^]*user name or password[^]*$/],
    [{ 'api-key': '  ' }, 'api-key', /is required/],
    [{ 'api-key': 'a b' }, 'api-key', /whitespace/],
    [{ 'site-id': '' }, 'site-id', /is required/],
    [{ 'site-id': 'Shop Web' }, 'site-id', /a-z, 0-9/],
    [{ sha: 'main' }, 'sha', /hex commit sha/],
    [{ 'fail-on-critical': 'yes' }, 'fail-on-critical', /true or false, got "yes"/],
    [{ 'fail-on-serious': '1' }, 'fail-on-serious', /true or false/],
    [{ 'fail-on-error': 'no' }, 'fail-on-error', /true or false/],
    [{ 'max-new-issues': '-1' }, 'max-new-issues', /non-negative integer/],
    [{ 'max-new-issues': '2.5' }, 'max-new-issues', /non-negative integer/],
    [{ 'max-new-issues': '99999999999999999999' }, 'max-new-issues', /too large/],
    [{ url: 'shop.example.com' }, 'url', /absolute http\(s\) URL/],
    [{ repository: 'acme' }, 'repository', /owner\/name/],
  ])('bad input %j fails naming %s', (override, input, pattern) => {
    expectInputError(
      () => parseInputs(getter({ ...base, ...override }), { GITHUB_SHA: SHA }),
      input,
      pattern,
    );
  });

  test('serve: a folder of the checkout turns the scanner on; its findings are located in the checkout', () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-action-'));
    fs.mkdirSync(path.join(workspace, 'dist'));
    const cwd = process.cwd();
    process.chdir(workspace); // a step runs in the checkout: `serve` is relative to it
    try {
      const inputs = parseInputs(getter({ ...base, serve: 'dist', spa: 'true' }), {
        GITHUB_SHA: SHA,
        GITHUB_WORKSPACE: workspace,
      });
      expect(inputs.scan).toMatchObject({
        serve: { dir: path.join(workspace, 'dist'), spa: true },
        urls: ['/'],
        crawl: true,
        sourceRoot: workspace,
      });
      expectInputError(
        () => parseInputs(getter({ ...base, serve: 'build' }), { GITHUB_SHA: SHA }),
        'serve',
        /^Input "serve" must be a folder: "build" does not exist$/,
      );
      expectInputError(
        () =>
          parseInputs(getter({ ...base, urls: 'https://shop.example.com/', spa: 'true' }), {
            GITHUB_SHA: SHA,
          }),
        'spa',
        /needs "serve"/,
      );
    } finally {
      process.chdir(cwd);
    }
  });

  test('an empty api-key on a pull_request event hands the scan to the GitHub App (forks get no secrets)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-action-'));
    const eventPath = path.join(dir, 'event.json');
    fs.writeFileSync(eventPath, JSON.stringify({ pull_request: { number: 17, head: { sha: SHA } } }));
    const env = { GITHUB_SHA: SHA, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: eventPath };
    // No api-url needed either: nothing is sent to the service from such a run.
    const inputs = parseInputs(
      getter({ 'site-id': 'shop-web', urls: 'http://127.0.0.1:1/', 'gate-mode': 'app' }),
      env,
    );
    expect(inputs.handOff).toEqual({ pullRequest: 17 });
    expect(inputs.apiKey).toBe('');
    // With nothing to hand over, the empty key is reported and says why it may be empty.
    expectInputError(
      () => parseInputs(getter({ ...base, 'api-key': '' }), env),
      'api-key',
      /is empty, as it is on pull requests from forks.*give "results" or pages to scan/,
    );
    // Elsewhere an empty key stays a mistake.
    expectInputError(
      () => parseInputs(getter({ ...base, 'api-key': '' }), { GITHUB_SHA: SHA, GITHUB_EVENT_NAME: 'push' }),
      'api-key',
      /is required/,
    );
    expect(parseInputs(getter(base), env).handOff).toBeNull();
  });

  test('gate-mode: the service with api-url or api-key, the step itself with neither, the App when asked', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-action-'));
    const eventPath = path.join(dir, 'event.json');
    const event = {
      pull_request: { number: 17, head: { sha: SHA } },
      repository: { default_branch: 'trunk' },
    };
    fs.writeFileSync(eventPath, JSON.stringify(event));
    const pr = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: eventPath, GITHUB_WORKSPACE: dir };
    const page = { 'site-id': 'shop-web', urls: 'http://127.0.0.1:1/' };

    expect(parseInputs(getter(base), { GITHUB_SHA: SHA }).gateMode).toBe('service');
    // A plain workflow, no service and no App (a fork's pull request too): judged in the step, against the
    // committed file in the checkout, the repository's default branch recording the baseline.
    const local = parseInputs(getter(page), pr);
    expect(local).toMatchObject({ gateMode: 'local', handOff: null, apiUrl: '', apiKey: '' });
    expect(local.local).toEqual({
      baselineFile: path.join(dir, '.a11y-gate', 'baseline.json'),
      baselineBranch: 'trunk',
      records: false,
    });
    // The service's step on a fork (its key is a secret, empty there) still hands its scan to the App.
    expect(parseInputs(getter({ ...base, ...page, 'api-key': '' }), pr).gateMode).toBe('app');
    // gate-mode: local wins over a service's inputs; the file and the branch are inputs.
    const named = parseInputs(
      getter({
        ...base,
        ...page,
        'gate-mode': 'local',
        baseline: 'a11y/known.json',
        'baseline-branch': 'develop',
      }),
      { GITHUB_SHA: SHA, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/develop', GITHUB_WORKSPACE: dir },
    );
    expect(named.gateMode).toBe('local');
    expect(named.local).toEqual({
      baselineFile: path.join(dir, 'a11y', 'known.json'),
      baselineBranch: 'develop',
      records: true,
    });
    // Only what lands on the baseline branch records it: not a pull request whose head branch has its name.
    const push = { GITHUB_SHA: SHA, GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' };
    expect(parseInputs(getter(page), push).local.records).toBe(true);
    expect(parseInputs(getter(page), { ...push, GITHUB_REF: 'refs/heads/feature' }).local.records).toBe(
      false,
    );
    expect(
      parseInputs(getter(page), { ...pr, GITHUB_REF: 'refs/heads/trunk', GITHUB_HEAD_REF: 'trunk' }).local
        .records,
    ).toBe(false);

    expectInputError(
      () => parseInputs(getter({ ...page, 'gate-mode': 'cloud' }), pr),
      'gate-mode',
      /"cloud"/,
    );
    expectInputError(
      () => parseInputs(getter({ ...page, 'gate-mode': 'app' }), push),
      'gate-mode',
      /hands a pull request's scan to the GitHub App, but this run is a push event/,
    );
    expectInputError(
      () => parseInputs(getter({ 'site-id': 'shop-web' }), pr),
      'api-url',
      /gates without a service: give pages to scan .* or "results"/,
    );
    expectInputError(
      () => parseInputs(getter({ ...page, shard: '1/2' }), { ...push, GITHUB_RUN_ID: '7' }),
      'shard',
      /needs the service/,
    );
    expectInputError(
      () => parseInputs(getter({ ...base, 'gate-mode': 'service', 'api-url': '' }), push),
      'api-url',
      /is required/,
    );
  });

  test('no sha anywhere names the sha input', () => {
    expectInputError(() => parseInputs(getter(base), {}), 'sha', /GITHUB_SHA is not set/);
  });

  test('credentials in api-url never appear in the error message', () => {
    expect(() =>
      parseInputs(getter({ ...base, 'api-url': 'https://ci:hunter2@a.example/' }), { GITHUB_SHA: SHA }),
    ).toThrow(/^(?!.*hunter2)/s);
  });

  test('the api key never appears in an error message', () => {
    try {
      parseInputs(getter({ ...base, 'api-key': 'a11y_secret with space' }), { GITHUB_SHA: SHA });
      throw new Error('expected an InputError');
    } catch (err) {
      expect((err as Error).message).not.toContain('secret');
    }
  });
});

describe('idempotencyKey', () => {
  const env = {
    GITHUB_SHA: SHA,
    GITHUB_RUN_ID: '99',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_REPOSITORY: 'acme/shop',
  };
  const body = { pages: [{ url: 'https://shop.example.com/' }] };

  test('same run, attempt, site, sha and body: same key; any of them changed: another key', () => {
    const inputs = parseInputs(getter(base), env);
    const key = idempotencyKey(inputs, 'scan', body);
    expect(key).toMatch(/^a11y-gate-action-scan-[0-9a-f]{40}$/);
    expect(idempotencyKey(parseInputs(getter(base), env), 'scan', body)).toBe(key);
    const others = [
      idempotencyKey(parseInputs(getter(base), { ...env, GITHUB_RUN_ATTEMPT: '2' }), 'scan', body),
      idempotencyKey(parseInputs(getter(base), { ...env, GITHUB_RUN_ID: '100' }), 'scan', body),
      idempotencyKey(parseInputs(getter({ ...base, 'site-id': 'other' }), env), 'scan', body),
      idempotencyKey(parseInputs(getter({ ...base, sha: 'abcdef1' }), env), 'scan', body),
      idempotencyKey(inputs, 'scan', { pages: [] }),
      idempotencyKey(inputs, 'gate', body),
      // The gate of a step that submitted a scan is keyed by that scan (two matrix jobs, one trigger body).
      idempotencyKey(inputs, 'gate', body, 'scn_1'),
      idempotencyKey(inputs, 'gate', body, 'scn_2'),
    ];
    expect(idempotencyKey(inputs, 'gate', body, 'scn_1')).toBe(idempotencyKey(inputs, 'gate', body, 'scn_1'));
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
  });

  test('outside Actions every invocation is its own run', () => {
    const inputs = parseInputs(getter(base), { GITHUB_SHA: SHA });
    expect(idempotencyKey(inputs, 'gate', body)).not.toBe(idempotencyKey(inputs, 'gate', body));
  });
});
