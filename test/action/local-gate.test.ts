import fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import nock from 'nock';
import { readZipFiles } from '../../core/github/artifact-zip.js';
import { zipLimits } from '../../core/github/fork-artifact.js';
import { parseBaseline, type BaselineEntry } from '../../scanner/baseline-file.js';
import { startArtifactStore, type ArtifactStore } from '../fixtures/github/artifact-store.js';
import { hostileZip } from '../fixtures/github/hostile-zip.js';
import { gitHubExample, gitHubRefusal } from '../fixtures/github/openapi.js';
import { webhookExample } from '../fixtures/github/test-app.js';
import { commentPage } from '../fixtures/github/comment-page.js';
import { mockActionsCore } from '../helpers/actions-core.js';
import { closeBrowser, runAxe } from '../helpers/axe-browser.js';
import { onlyFakeGitHub } from '../helpers/github-network.js';
import { json, useScriptedApi, type Answer } from '../helpers/scripted-api.js';
import { CHROMIUM_PATH, chromium, describeWith } from '../helpers/requirements.js';

/**
 * The Action without a service (`gate-mode: local`, the default without `api-url`): `run()` with the
 * toolkit mocked, pages scanned in Debian's Chromium, the artifact store on loopback receiving what the
 * baseline branch's run uploads. GitHub's REST API answers with bodies from GitHub's own description, and
 * every request is checked against it; the test names every request it expects, so any other fails it.
 * @actions/github's Octokit fetches through its own undici, which nock cannot see: its GitHub is a scripted
 * server on loopback (as in pr-comment.test.ts); the artifact storage it redirects to is nock's.
 */

const core = mockActionsCore();
const { run } = await import('../../action/run.js');

const GITHUB = 'https://api.github.com';
const STORAGE = 'https://productionresultssa3.blob.core.windows.net';
const gh = useScriptedApi();
const MAIN_SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';
const PR_SHA = 'c0ffee5b57875f334f61aebed695e2e4193db5ea';
const PULL = 17;
const THIS_RUN = '9001';
const REPO_ID = 1296269;
const ARTIFACT = 'a11y-gate-baseline-shop';
const TOKEN = 'ghs_workflow_token';
const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'action');
const require = createRequire(import.meta.url);

onlyFakeGitHub();

const savedEnv = { ...process.env };
let workspace: string;
/** Requests to the artifact storage no interceptor answered (the loopback servers' aside). */
let unexpected: string[];
const onNoMatch = (req: { hostname?: string; host?: string; method?: string; path?: string }) => {
  const host = req.hostname ?? req.host ?? '';
  if (!host.startsWith('127.0.0.1')) unexpected.push(`${req.method} ${host}${req.path}`);
};

beforeEach(() => {
  core.calls.length = 0;
  core.summary = '';
  unexpected = [];
  nock.emitter.on('no match', onNoMatch);
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-local-gate-'));
  fs.mkdirSync(path.join(workspace, 'tmp'));
  core.inputs = { 'site-id': 'shop', 'github-token': TOKEN, 'fail-on-critical': 'true' };
  process.env = {
    ...savedEnv,
    GITHUB_WORKSPACE: workspace,
    RUNNER_TEMP: path.join(workspace, 'tmp'),
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_RUN_ID: THIS_RUN,
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_API_URL: gh.baseUrl,
    GITHUB_STEP_SUMMARY: path.join(workspace, 'summary.md'),
    CHROME_PATH: CHROMIUM_PATH,
  };
  for (const name of ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL', 'GITHUB_HEAD_REF', 'CI']) {
    delete process.env[name];
  }
});
afterEach(() => {
  nock.emitter.removeListener('no match', onNoMatch);
  process.env = savedEnv;
  fs.rmSync(workspace, { recursive: true, force: true });
});

/**
 * GitHub got exactly these requests (method, path and query), in this order, each with the workflow's token
 * and each one its REST API takes; the storage's downloads were all expected and made.
 */
function expectGitHub(requests: string[]): void {
  expect(gh.seen.map((s) => `${s.method} ${s.url}`)).toEqual(requests);
  for (const s of gh.seen) {
    expect(s.headers.authorization).toBe(`token ${TOKEN}`);
    expect(gitHubRefusal(s.method, s.url, s.body)).toBeUndefined();
  }
  expect(unexpected).toEqual([]);
  expect(nock.pendingMocks()).toEqual([]);
}

const LIST = `GET /repos/acme/shop/actions/artifacts?name=${ARTIFACT}&per_page=100`;
const RUN = (id: number) => `GET /repos/acme/shop/actions/runs/${id}`;
const DOWNLOAD = (id: number) => `GET /repos/acme/shop/actions/artifacts/${id}/zip`;
const COMMENTS = `GET /repos/acme/shop/issues/${PULL}/comments?per_page=100&page=1`;
const CREATE = `POST /repos/acme/shop/issues/${PULL}/comments`;

function writeEvent(name: string, payload: object): void {
  const file = path.join(workspace, 'event.json');
  fs.writeFileSync(file, JSON.stringify(payload));
  process.env.GITHUB_EVENT_NAME = name;
  process.env.GITHUB_EVENT_PATH = file;
}

/** A pull request from `feature/cart` into `main` (a real payload, adjusted). */
function onPullRequest(): void {
  const payload = webhookExample('pull_request', 'opened');
  payload.number = PULL;
  payload.pull_request.number = PULL;
  payload.pull_request.head.sha = PR_SHA;
  payload.pull_request.head.ref = 'feature/cart';
  payload.pull_request.base.ref = 'main';
  payload.repository.default_branch = 'main';
  writeEvent('pull_request', payload);
  Object.assign(process.env, {
    GITHUB_SHA: 'f'.repeat(40),
    GITHUB_REF: `refs/pull/${PULL}/merge`,
    GITHUB_HEAD_REF: 'feature/cart',
  });
}

/** A push to `main`, the repository's default branch (a real payload, adjusted). */
function onPushToMain(): void {
  const examples = require('@octokit/webhooks-examples') as WebhookDefinition[];
  const payload = structuredClone(examples.find((g) => g.name === 'push')!.examples[0]) as {
    ref: string;
    after: string;
    repository: { default_branch: string };
  };
  payload.ref = 'refs/heads/main';
  payload.after = MAIN_SHA;
  payload.repository.default_branch = 'main';
  writeEvent('push', payload);
  Object.assign(process.env, { GITHUB_SHA: MAIN_SHA, GITHUB_REF: 'refs/heads/main' });
}

interface ListedArtifact {
  run: number;
  id: number;
  size: number;
  expired?: boolean;
  fork?: boolean;
  created: string;
}

/** `GET /repos/{owner}/{repo}/actions/artifacts?name=…`: the artifacts of that name, newest first. */
function artifactList(listed: ListedArtifact[]) {
  const page = gitHubExample<{ total_count: number; artifacts: Record<string, unknown>[] }>(
    'artifact-paginated',
  );
  const template = page.artifacts[0];
  page.artifacts = listed.map((a) => ({
    ...template,
    id: a.id,
    node_id: Buffer.from(`08:Artifact${a.id}`).toString('base64'),
    name: ARTIFACT,
    size_in_bytes: a.size,
    url: `${GITHUB}/repos/acme/shop/actions/artifacts/${a.id}`,
    archive_download_url: `${GITHUB}/repos/acme/shop/actions/artifacts/${a.id}/zip`,
    expired: a.expired ?? false,
    created_at: a.created,
    updated_at: a.created,
    workflow_run: {
      id: a.run,
      repository_id: REPO_ID,
      // A fork's run may upload an artifact of the same name from its own `main`.
      head_repository_id: a.fork ? 217723378 : REPO_ID,
      head_branch: 'main',
      head_sha: MAIN_SHA,
    },
  }));
  page.total_count = listed.length;
  return page;
}

/** `GET /repos/{owner}/{repo}/actions/runs/{run_id}`: a push run of `main` that ended as `conclusion`. */
function workflowRun(id: number, conclusion: 'success' | 'failure') {
  const run = gitHubExample<
    Record<string, unknown> & { repository: { id: number }; head_repository: { id: number } }
  >('workflow-run');
  Object.assign(run, {
    id,
    event: 'push',
    status: 'completed',
    conclusion,
    head_branch: 'main',
    head_sha: MAIN_SHA,
  });
  run.repository.id = REPO_ID;
  run.head_repository.id = REPO_ID;
  return run;
}

/** GitHub redirects the download to its storage (nock's), which is fetched without the token. */
function download(artifactId: number, zip: Buffer): Answer {
  const signed = `/actions-results/${artifactId}/baseline.zip`;
  nock(STORAGE, { badheaders: ['authorization'] })
    .get(signed)
    .query(true)
    .reply(200, zip, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
  return (res) => {
    res.writeHead(302, { location: `${STORAGE}${signed}?sig=signed-by-github` });
    res.end();
  };
}

/** An issue comment as GitHub answers it, the bot's. */
function comment(id: number, body: string) {
  const c = gitHubExample<{ user: Record<string, unknown> }>('issue-comment');
  return { ...c, id, body, user: { ...c.user, login: 'github-actions[bot]', type: 'Bot' } };
}

/** The body the step wrote to the pull request (the last request to GitHub). */
const writtenComment = () => (gh.seen.at(-1)?.body as { body: string } | undefined)?.body ?? '';

const calls = (fn: string) => core.calls.filter((c) => c.fn === fn);
const texts = (fn: string) => calls(fn).map((c) => String(c.args[0]));
const output = (name: string) => calls('setOutput').find((c) => c.args[0] === name)?.args[1];

async function baselineInZip(zip: Buffer): Promise<BaselineEntry[]> {
  const files = await readZipFiles(zip, zipLimits(32 * 1024 * 1024), {
    artifact: ARTIFACT,
    files: ['baseline.json'],
  });
  return parseBaseline(files.get('baseline.json')!.toString('utf8'), 'baseline.json');
}

const page = (body: string) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Cart</title></head>',
    '<body>',
    '<main>',
    '<h1>Cart</h1>',
    body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
/** The base branch's page: one issue, the debt the site starts from. */
const BEFORE = page('<img src="/hero.png" width="80" height="40">');
/** The pull request's page: the same, and a button without a name on line 8, column 1. */
const AFTER = page('<img src="/hero.png" width="80" height="40">\n<button class="pay"></button>');

describeWith(
  chromium,
  'the Action without a service, scanning in Chromium: a repository from its first run on',
  () => {
    let server: Server;
    let base: string;
    let store: ArtifactStore;
    /** The zip the base branch's run uploaded: what later runs download as its baseline. */
    let uploaded: Buffer;

    beforeAll(async () => {
      store = await startArtifactStore();
      // The checkout's site/index.html, read afresh on each request (each test writes its own).
      server = createServer((req, res) => {
        const file = path.join(workspace, 'site', 'index.html');
        if (req.url !== '/' || !fs.existsSync(file)) return void res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(fs.readFileSync(file));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await Promise.all([store?.close(), new Promise((resolve) => server?.close(resolve)), closeBrowser()]);
    });

    function site(html: string): void {
      fs.mkdirSync(path.join(workspace, 'site'));
      fs.writeFileSync(path.join(workspace, 'site', 'index.html'), html);
      Object.assign(core.inputs, { urls: `${base}/`, concurrency: '1' });
    }

    test("the base branch's first run: its issues recorded as the baseline artifact, and the job passes", async () => {
      site(BEFORE);
      onPushToMain();
      Object.assign(process.env, {
        ACTIONS_RUNTIME_TOKEN: store.token,
        ACTIONS_RESULTS_URL: `${store.url}/`,
      });
      // Nothing before it: the search finds no artifact of that name.
      gh.script = [json(200, artifactList([]))];

      await run();

      expect(texts('setFailed')).toEqual([]);
      expect(output('passed')).toBe('true');
      expect(output('deploy-id')).toBe('');
      const artifact = store.artifacts.get(ARTIFACT);
      expect(artifact?.finalized).toBe(true);
      uploaded = artifact!.zip;
      // The baseline file's own format, located in the checkout.
      expect(await baselineInZip(uploaded)).toEqual([
        expect.objectContaining({
          page: '/',
          rule: 'image-alt',
          selector: 'img',
          source: 'site/index.html:7',
        }),
      ]);
      expect(core.summary).toContain('Judged in this step, without a service: 1 of 1 pages scanned');
      expect(core.summary).toContain(
        `This run's issues were left as the baseline in the artifact \`${ARTIFACT}\`.`,
      );
      expect(core.summary).toContain('`baseline_recorded`');
      expect(core.summary).toContain('The first scan on the base branch "main"');
      expectGitHub([LIST]);
    }, 120_000);

    test('a pull request with a committed baseline file: the new issue annotated at its line, the comment written, the job failed', async () => {
      site(AFTER);
      onPullRequest();
      const committed = path.join(workspace, '.a11y-gate', 'baseline.json');
      fs.mkdirSync(path.dirname(committed));
      fs.writeFileSync(
        committed,
        (
          await readZipFiles(uploaded, zipLimits(1 << 20), { artifact: ARTIFACT, files: ['baseline.json'] })
        ).get('baseline.json')!,
      );
      // The file is the baseline: GitHub is asked only for the comment.
      gh.script = [json(200, []), json(201, comment(31, ''))];

      await run();

      expect(texts('setFailed')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^Accessibility gate failed for shop at ${PR_SHA} \\(judged without a service, against \\.a11y-gate/baseline\\.json\\):\\n- .*critical`,
          ),
        ),
      ]);
      expect(calls('error').map((c) => c.args[1])).toEqual([
        { title: 'a11y-gate: button-name (critical)', file: 'site/index.html', startLine: 8, startColumn: 1 },
      ]);
      expect(output('passed')).toBe('false');
      expect(output('new-issues')).toBe('1');
      const written = { body: writtenComment() };
      expect(
        written.body.startsWith('<!-- a11y-gate:shop -->\n### ❌ Accessibility gate failed: `shop`'),
      ).toBe(true);
      // New, fixed, existing, waived: the image is the debt the file holds.
      expect(written.body).toContain('| 1 | 0 | 1 | 0 |');
      expect(written.body).toContain(`(https://github.com/acme/shop/blob/${PR_SHA}/site/index.html#L8)`);
      expect(core.summary).toContain('The committed baseline file .a11y-gate/baseline.json (1 entry).');
      expectGitHub([COMMENTS, CREATE]);
      // What people read, rendered as GitHub renders markdown: nothing in it that axe-core finds.
      for (const markdown of [written.body, core.summary]) {
        const axe = await runAxe(commentPage(markdown));
        expect(
          axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        ).toEqual([]);
      }
      if (process.env.DUMP_LOCAL_GATE) {
        fs.writeFileSync('/tmp/al-comment.md', written.body);
        fs.writeFileSync('/tmp/al-summary.md', core.summary);
      }
    }, 120_000);

    test("a pull request without the file: gated against the baseline branch's latest successful run", async () => {
      site(AFTER);
      onPullRequest();
      const before = '<!-- a11y-gate:shop -->\n### ✅ Accessibility gate passed: `shop`\n';
      gh.script = [
        json(
          200,
          artifactList([
            // Newest first: a fork's run of its own `main` (never asked about), a failed run, the run that passed.
            { run: 7003, id: 4303, size: 900, fork: true, created: '2026-11-26T12:00:00Z' },
            { run: 7002, id: 4302, size: uploaded.length, created: '2026-11-26T11:00:00Z' },
            { run: 7001, id: 4301, size: uploaded.length, created: '2026-11-26T10:00:00Z' },
          ]),
        ),
        json(200, workflowRun(7002, 'failure')),
        json(200, workflowRun(7001, 'success')),
        download(4301, uploaded),
        // The bot's comment from the last run is updated in place.
        json(200, [comment(44, before)]),
        json(200, comment(44, before)),
      ];

      await run();

      expect(output('new-issues')).toBe('1');
      expect(texts('setFailed')).toEqual([expect.stringContaining('against the baseline of run 7001')]);
      expect(core.summary).toContain(
        `The baseline of the latest successful run on main (run 7001, commit ${MAIN_SHA.slice(0, 12)}), left as its artifact.`,
      );
      expect(writtenComment()).toContain('| 1 | 0 | 1 | 0 |');
      expectGitHub([
        LIST,
        RUN(7002),
        RUN(7001),
        DOWNLOAD(4301),
        COMMENTS,
        'PATCH /repos/acme/shop/issues/comments/44',
      ]);
    }, 120_000);

    test('no baseline anywhere: every issue counts as new, and the step says how to give it one', async () => {
      site(AFTER);
      onPullRequest();
      gh.script = [
        json(
          200,
          artifactList([
            { run: 7003, id: 4303, size: 900, fork: true, created: '2026-11-26T12:00:00Z' },
            { run: 6990, id: 4290, size: 900, expired: true, created: '2026-08-01T10:00:00Z' },
          ]),
        ),
        json(200, []),
        json(201, comment(31, '')),
      ];

      await run();

      const message =
        'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.';
      expect(calls('warning')).toEqual([
        { fn: 'warning', args: [message, { title: 'a11y-gate: no baseline' }] },
      ]);
      expect(output('new-issues')).toBe('2');
      expect(texts('setFailed')).toEqual([
        expect.stringContaining('(judged without a service, with no baseline)'),
      ]);
      expect(core.summary).toContain(message);
      expect(writtenComment()).toContain('| 2 | 0 | 0 | 0 |');
      expectGitHub([LIST, COMMENTS, CREATE]);
    }, 120_000);
  },
);

describe('the Action without a service, judging result files', () => {
  /** A real axe-core result (four violations), its image located as a scanner with an attribute would. */
  function results(): string {
    const axe = JSON.parse(fs.readFileSync(path.join(fixtures, 'axe-result.json'), 'utf8')) as {
      violations: { id: string; nodes: Record<string, unknown>[] }[];
    };
    const image = axe.violations.find((v) => v.id === 'image-alt')!;
    image.nodes[0].source = { path: 'src/Hero.tsx', line: 12, column: 5, method: 'attribute' };
    const file = path.join(workspace, 'a11y-results', 'home.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify(axe));
    core.inputs.results = file;
    return file;
  }

  test("outside a runner the baseline branch's baseline stays in a folder, as the fork hand-off's scan does", async () => {
    results();
    onPushToMain();
    gh.script = [json(200, artifactList([]))];

    await run();

    expect(texts('setFailed')).toEqual([]);
    const folder = /the artifact's files are in (\S+)\.$/.exec(
      texts('info').find((t) => t.startsWith('Not in a GitHub Actions job')) ?? '',
    )?.[1];
    expect(folder?.startsWith(path.join(workspace, 'tmp', `${ARTIFACT}-`))).toBe(true);
    const entries = parseBaseline(
      fs.readFileSync(path.join(folder!, 'baseline.json'), 'utf8'),
      'baseline.json',
    );
    expect(entries.map((e) => e.rule)).toEqual([
      'button-name',
      'color-contrast',
      'html-has-lang',
      'image-alt',
    ]);
    expect(entries.find((e) => e.rule === 'image-alt')?.source).toBe('src/Hero.tsx:12');
    expect(core.summary).toContain('no artifact store outside GitHub Actions');
    expect(core.summary).toContain('Judged in this step, without a service: 1 result file.');
    expectGitHub([LIST]);
  });

  test('gate: false on the baseline branch records the baseline and judges nothing', async () => {
    results();
    onPushToMain();
    core.inputs.gate = 'false';
    gh.script = [json(200, artifactList([]))];

    await run();

    expect(texts('setFailed')).toEqual([]);
    expect(output('passed')).toBe('');
    expect(core.summary).toMatch(
      /^## a11y-gate: `shop`\n\n`gate` is `false`: the scan was not judged\. This run's issues were left as the baseline in the folder /,
    );
    expectGitHub([LIST]);
  });

  test.each([
    [
      'a zip bomb',
      () => hostileZip([{ name: 'baseline.json', data: Buffer.alloc(20 * 1024 * 1024, 0x20) }]),
      /would inflate \d+ times its compressed size \(a zip bomb\?\)/,
    ],
    [
      'the wrong file',
      () => hostileZip([{ name: 'scan.json', data: Buffer.from('{"pages":[]}') }]),
      /the artifact lacks baseline\.json/,
    ],
    [
      'a climbing entry',
      () => hostileZip([{ name: '../../.bashrc', data: Buffer.from('x') }]),
      /climbs out of the artifact/,
    ],
    [
      'invalid JSON',
      () => hostileZip([{ name: 'baseline.json', data: Buffer.from('{"version": 1, "issues": [') }]),
      /baseline\.json of run 7001: not JSON/,
    ],
    [
      'JSON that is no baseline',
      () =>
        hostileZip([
          { name: 'baseline.json', data: Buffer.from('{"version": 1, "issues": [{"page": "/"}]}') },
        ]),
      /baseline\.json of run 7001: "issues\[0\]\.rule"/,
    ],
  ])(
    'a hostile baseline artifact (%s): refused with a clear error, the job failed, nothing crashes',
    async (_name, zipOf, reason) => {
      results();
      onPullRequest();
      const zip = zipOf();
      gh.script = [
        json(200, artifactList([{ run: 7001, id: 4301, size: zip.length, created: '2026-11-26T10:00:00Z' }])),
        json(200, workflowRun(7001, 'success')),
        download(4301, zip),
      ];

      await expect(run()).resolves.toBeUndefined();

      const failed = texts('setFailed');
      expect(failed).toEqual([expect.stringMatching(/^The baseline artifact of run 7001 was refused: /)]);
      expect(failed[0]).toMatch(reason);
      expect(output('passed')).toBe('false');
      expect(core.summary).toContain('### ❌ The accessibility gate could not be evaluated');
      expect(core.summary).toContain('The baseline artifact of run 7001 was refused');
      // Nothing judged, so no comment and no annotation.
      expect(calls('error')).toEqual([]);
      expectGitHub([LIST, RUN(7001), DOWNLOAD(4301)]);
    },
  );

  test('a token that may not read the Actions artifacts: the step says which permission it needs', async () => {
    results();
    onPullRequest();
    gh.script = [
      json(403, {
        message: 'Resource not accessible by integration',
        documentation_url: 'https://docs.github.com/rest/actions/artifacts#list-artifacts-for-a-repository',
        status: '403',
      }),
    ];

    await run();

    expect(texts('setFailed')).toEqual([
      `Could not list the artifacts named ${ARTIFACT}: GitHub answered 403: the workflow's token needs "actions: read" (the job's permissions).`,
    ]);
    expectGitHub([LIST]);
  });

  test('pa11y results need the service: refused naming the page, before GitHub is asked', async () => {
    core.inputs.results = path.join(fixtures, 'pa11y.json');
    onPullRequest();

    await run();

    expect(texts('setFailed')).toEqual([
      expect.stringMatching(
        /: pa11y results are judged by the service only; without one the gate reads axe-core results$/,
      ),
    ]);
    expectGitHub([]);
  });
});
