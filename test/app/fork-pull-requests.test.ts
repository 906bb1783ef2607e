import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nock from 'nock';
import yauzl from 'yauzl';
import type { DeployEvent } from '../../core/gate/deploy-event.js';
import type { CreatedScan, DeployList, ScanDetail } from '../helpers/api-types.js';
import { dbKinds, useHarness } from '../helpers/harness.js';
import { chromium, describeWith } from '../helpers/requirements.js';
import { parseOutputFile, runNode } from '../scanner/process.js';
import { startSite, type Site } from '../scanner/site.js';
import { startArtifactStore, type ArtifactStore } from '../fixtures/github/artifact-store.js';
import { hostileZip } from '../fixtures/github/hostile-zip.js';
import { assertGitHubRequest, checkAgainstGitHub } from '../fixtures/github/openapi.js';
import {
  signWebhook,
  testProbot,
  webhookExample,
  type CreatedCheckRun,
} from '../fixtures/github/test-app.js';
import { onlyFakeGitHub } from '../helpers/github-network.js';
import {
  ALL_HOSTILE,
  extraMarkup,
  gitHubMarkdown,
  linkableText,
  tokensOf,
} from '../helpers/github-render.js';
import { refusalSummary } from '../../core/github/fork-artifact.js';
import { deliverDue } from '../helpers/outbox.js';
import { actionJob } from '../helpers/action-job.js';

/**
 * A pull request from a fork, end to end: the bundled Action runs in the fork's workflow without an API
 * key and uploads its scan as the `a11y-gate-scan` artifact (to an artifact store on loopback, which keeps
 * the zip as GitHub serves it); GitHub (nock) then tells the App the run completed, and the App fetches
 * the artifact, gates the scan and posts the check run on the fork's head sha. Poisoned artifacts are
 * refused with a failed check run and store nothing.
 */

const GITHUB = 'https://api.github.com';
const STORAGE = 'https://pipelines.actions.githubusercontent.com';
const HEAD_SHA = 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0';
const BASE_SHA = 'b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0';
const INSTALLATION = 4711;
const RUN_ID = 30433642;
const ARTIFACT_ID = 4242;
const PULL = 17;
const bundle = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'index.js');

/**
 * The fork's workflow step: the bundled Action on a pull_request event, with no api-key and no api-url,
 * handing its scan to the App (`gate-mode: app`).
 */
async function forkStep(site: Site, store: ArtifactStore) {
  const { dir, files, env } = actionJob(
    'a11y-fork-step-',
    (folder) => ({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: path.join(folder, 'event.json'),
      GITHUB_WORKSPACE: folder,
      RUNNER_TEMP: folder,
      ACTIONS_RUNTIME_TOKEN: store.token,
      ACTIONS_RESULTS_URL: `${store.url}/`,
    }),
    // The App judges: the workflow says so, as it must without api-url (else the step judges itself).
    { 'site-id': 'shop', urls: `${site.url}/d`, 'gate-mode': 'app' },
  );
  const event = { pull_request: { number: PULL, head: { sha: HEAD_SHA, ref: 'main' } } };
  fs.writeFileSync(path.join(dir, 'event.json'), JSON.stringify(event));
  const result = await runNode(bundle, [], env, dir);
  return {
    ...result,
    outputs: parseOutputFile(fs.readFileSync(files.output, 'utf8')),
    summary: fs.readFileSync(files.summary, 'utf8'),
  };
}

/** The names in a zip's central directory (read with the same library as the App, but only listed). */
function zipNames(zip: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: false }, (err, file) => {
      if (err) return reject(err);
      const names: string[] = [];
      file.on('entry', (e: yauzl.Entry) => names.push(e.fileName));
      file.on('end', () => resolve(names.sort()));
      file.on('error', reject);
    });
  });
}

/** GitHub's `workflow_run` `completed` for the fork's pull request run (a real payload, adjusted). */
function completedRun(headSha = HEAD_SHA) {
  const payload = webhookExample('workflow_run', 'completed');
  const run = payload.workflow_run;
  run.id = RUN_ID;
  run.event = 'pull_request';
  run.head_sha = headSha;
  run.head_branch = 'main';
  // GitHub leaves this empty for pull requests from forks.
  run.pull_requests = [];
  run.head_repository.full_name = 'contributor/shop';
  run.head_repository.owner.login = 'contributor';
  payload.repository.full_name = 'acme/shop';
  payload.repository.name = 'shop';
  payload.repository.owner.login = 'acme';
  return {
    ...payload,
    installation: { id: INSTALLATION, node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNDcxMQ==' },
  };
}

/** The open pull request GitHub lists for the fork's head (a real pull request object, adjusted). */
function listedPull(headSha = HEAD_SHA) {
  const pr = webhookExample('pull_request', 'opened').pull_request;
  pr.number = PULL;
  pr.state = 'open';
  pr.head.sha = headSha;
  pr.head.ref = 'main';
  pr.head.label = 'contributor:main';
  pr.base.repo.full_name = 'acme/shop';
  return pr;
}

function artifactList() {
  return {
    total_count: 1,
    artifacts: [
      {
        id: ARTIFACT_ID,
        node_id: 'MDg6QXJ0aWZhY3Q0MjQy',
        name: 'a11y-gate-scan',
        size_in_bytes: 2400,
        url: `${GITHUB}/repos/acme/shop/actions/artifacts/${ARTIFACT_ID}`,
        archive_download_url: `${GITHUB}/repos/acme/shop/actions/artifacts/${ARTIFACT_ID}/zip`,
        expired: false,
        created_at: '2026-11-26T10:00:00Z',
        updated_at: '2026-11-26T10:00:00Z',
        expires_at: '2026-12-03T10:00:00Z',
        digest: null,
        workflow_run: { id: RUN_ID, head_sha: HEAD_SHA },
      },
    ],
  };
}

onlyFakeGitHub();

const md = gitHubMarkdown();
/** The headings the App writes itself. */
const OUR_HEADINGS =
  /^((✅|❌) Accessibility gate (passed|failed)(: `shop`)?|New issues \(\d+\)|Issues by impact|Thresholds|Baseline)$/;
/** A zip entry's name that is markup, a mention and a link all at once. */
const HOSTILE_NAME = 'scan.json\r<img src=x>\r# Approved @acme/maintainers https://evil.example <!--';

describeWith(chromium, 'pull requests from forks, through the artifact', () => {
  let artifact: Buffer;
  let step: Awaited<ReturnType<typeof forkStep>>;
  beforeAll(async () => {
    const [site, store] = await Promise.all([startSite(), startArtifactStore()]);
    try {
      step = await forkStep(site, store);
      artifact = store.artifacts.get('a11y-gate-scan')?.zip ?? Buffer.alloc(0);
    } finally {
      await Promise.all([site.close(), store.close()]);
    }
  }, 120_000);

  test('the Action without a key scans, uploads the artifact, does not fail and says what will happen', async () => {
    expect(step.stderr).toBe('');
    expect(step.code).toBe(0);
    expect(step.stdout).not.toMatch(/^::error/m);
    expect(step.stdout).toMatch(/^::notice title=a11y-gate%3A gate result will come from the GitHub App::/m);
    expect(step.outputs.passed).toBe('');
    expect(step.summary).toContain('## a11y-gate: scan handed to the GitHub App (shop)');
    expect(step.summary).toContain(`1 page of ${HEAD_SHA} (pull request #${PULL}) was saved to the artifact`);
    expect(await zipNames(artifact)).toEqual(['a11y-gate.json', 'scan.json']);
  });

  describe.each(dbKinds)('the App (%s)', (db) => {
    const h = useHarness({
      db,
      org: 'acme',
      probot: testProbot(),
      // One page a scan: the Action's artifact (one page) fits, a two-page artifact is over the limit.
      env: { GITHUB_TIMEOUT_MS: '4000', GITHUB_INSTALLATIONS_ORG: 'acme', MAX_PAGES_PER_SCAN: '1' },
    });

    beforeAll(async () => {
      // The base branch's scan (no issues) is the baseline; the site is bound to acme/shop.
      const base = await h.request<CreatedScan>('POST', '/api/v1/scans', {
        key: h.key,
        body: { url: 'https://shop.example.com/', siteId: 'shop', sha: BASE_SHA, branch: 'main', pages: [] },
      });
      expect(base.status).toBe(201);
      const bound = await h.request('PATCH', '/api/v1/sites/shop', {
        key: h.key,
        body: { repository: 'acme/shop' },
      });
      expect(bound.status).toBe(200);
    });

    async function counts() {
      const n = async (table: string) => Number((await h.db(table).count({ n: '*' }))[0].n);
      return { scans: await n('scans'), deploys: await n('deploys') };
    }

    function deliver(payload: object) {
      const body = JSON.stringify(payload);
      return fetch(`${h.url}/api/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'workflow_run',
          'x-github-delivery': `delivery-${Math.random().toString(36).slice(2)}`,
          'x-hub-signature-256': signWebhook(body),
        },
        body,
      });
    }

    /** GitHub as the App sees it for the run: its artifact, the redirect, the zip, the pull request. */
    function github(zip: Buffer, headSha = HEAD_SHA, pulls = true) {
      const storage = nock(STORAGE, { badheaders: ['authorization'] })
        .get('/artifacts/a11y-gate-scan.zip')
        .query(true)
        .reply(200, zip, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
      const api = nock(GITHUB)
        .post(`/app/installations/${INSTALLATION}/access_tokens`)
        .optionally()
        .times(2)
        .reply(201, { token: 'ghs_fork_installation', expires_at: '2099-01-01T00:00:00Z' })
        .get(`/repos/acme/shop/actions/runs/${RUN_ID}/artifacts`)
        .query({ name: 'a11y-gate-scan', per_page: '100' })
        .reply(200, artifactList())
        .get(`/repos/acme/shop/actions/artifacts/${ARTIFACT_ID}/zip`)
        .matchHeader('authorization', 'token ghs_fork_installation')
        .reply(302, '', { location: `${STORAGE}/artifacts/a11y-gate-scan.zip?sig=signed-by-github` });
      if (!pulls) return { storage, api };
      api
        // The fork's commit is not in the base repository: GitHub lists nothing for it there…
        .get(`/repos/acme/shop/commits/${headSha}/pulls`)
        .query({ per_page: '100' })
        .reply(200, [])
        // …and the open pull requests from the fork's branch name it.
        .get('/repos/acme/shop/pulls')
        .query({ state: 'open', head: 'contributor:main', per_page: '100' })
        .reply(200, [listedPull(headSha)]);
      return { storage, api };
    }

    function checkRunPosted() {
      let created: CreatedCheckRun | undefined;
      const scope = nock(GITHUB)
        .post('/repos/acme/shop/check-runs', (body: CreatedCheckRun) => {
          assertGitHubRequest('post', '/repos/{owner}/{repo}/check-runs', body);
          created = body;
          return true;
        })
        .matchHeader('authorization', 'token ghs_fork_installation')
        .reply(201, { id: 7001, html_url: 'https://github.com/acme/shop/runs/7001' });
      return { scope, created: () => created };
    }

    test("a fork's artifact becomes a scan, a deploy event, a check run on the fork's head sha and the pull request's comment", async () => {
      const before = await counts();
      const gh = github(artifact);
      // The publisher asks, as the App, which installation the repository has.
      const lookup = nock(GITHUB)
        .get('/repos/acme/shop/installation')
        .matchHeader('authorization', /^bearer ey/i)
        .reply(200, { id: INSTALLATION, account: { login: 'acme' } });
      const check = checkRunPosted();
      // …and the pull request GitHub listed for the head sha gets the comment, with the same installation.
      const comments: Array<{ body: string }> = [];
      const conversation = nock(GITHUB)
        .get(`/repos/acme/shop/issues/${PULL}/comments`)
        .query(true)
        .matchHeader('authorization', 'token ghs_fork_installation')
        .reply(200, [])
        .post(`/repos/acme/shop/issues/${PULL}/comments`, (b: { body: string }) => (comments.push(b), true))
        .matchHeader('authorization', 'token ghs_fork_installation')
        .reply(201, { id: 9001 });
      const refusals = checkAgainstGitHub(conversation);

      const res = await deliver(completedRun());
      expect(res.status).toBe(200);
      await deliverDue(h.server.service.ctx);
      expect(gh.api.isDone() && gh.storage.isDone() && lookup.isDone() && check.scope.isDone()).toBe(true);
      expect(conversation.isDone()).toBe(true);
      expect(refusals).toEqual([]);
      expect(comments).toHaveLength(1);
      expect(comments[0].body.split('\n')[0]).toBe('<!-- a11y-gate:shop -->');
      expect(comments[0].body).toContain('button-name');
      expect(await counts()).toEqual({ scans: before.scans + 1, deploys: before.deploys + 1 });

      const list = await h.request<DeployList>('GET', '/api/v1/deploys?siteId=shop', { key: h.key });
      const found = await h.request<DeployEvent>('GET', `/api/v1/deploy/${list.body.data[0].id}`, {
        key: h.key,
      });
      const event = found.body;
      expect(event).toMatchObject({
        siteId: 'shop',
        sha: HEAD_SHA,
        repository: 'acme/shop',
        ref: `refs/pull/${PULL}/head`,
        passed: false,
        baseline: { sha: BASE_SHA, strategy: 'base_branch' },
      });
      // The page scanned in the fork (test/scanner/site.ts's /d) has an empty <button>.
      expect(event.new_issues.map((i) => i.rule)).toContain('button-name');

      const scan = await h.request<ScanDetail>('GET', `/api/v1/scans/${event.scan_id}`, { key: h.key });
      // Filed under the pull request, not under the fork's branch "main" (which would make it the baseline).
      expect(scan.body).toMatchObject({ sha: HEAD_SHA, branch: `pull/${PULL}/head` });
      expect(scan.body.pages.map((p) => p.url)).toEqual([expect.stringMatching(/\/d$/)]);

      expect(check.created()).toMatchObject({
        name: 'a11y-gate / shop',
        head_sha: HEAD_SHA,
        external_id: event.id,
        conclusion: 'failure',
      });
      const stored = await h.request<DeployEvent>('GET', `/api/v1/deploy/${event.id}`, { key: h.key });
      expect(stored.body.check_run).toMatchObject({ status: 'completed', id: 7001 });
    });

    test("a fork's scan.json full of markup, mentions and links: the comment and the check run show it as text", async () => {
      // Every hostile string at once, in every field a scan's issue carries (identifiers take no NUL).
      const hostile = ALL_HOSTILE.replaceAll('\u0000', '');
      const issue = {
        rule: hostile.slice(0, 200),
        impact: 'critical',
        message: `Fix any of the following:\n  ${hostile.replace(/\n/g, ' ')}`,
        selector: hostile,
        html: hostile,
        help_url: 'https://evil.example/merge-now',
        source: { path: hostile.slice(0, 1000), line: 1 },
      };
      const zip = hostileZip([
        { name: 'a11y-gate.json', data: manifest },
        {
          name: 'scan.json',
          data: Buffer.from(
            JSON.stringify({
              url: 'https://shop.example.com/',
              siteId: 'shop',
              sha: HEAD_SHA,
              pages: [{ url: '/d', issues: [issue] }],
            }),
          ),
        },
      ]);
      const gh = github(zip);
      nock(GITHUB)
        .get('/repos/acme/shop/installation')
        .reply(200, { id: INSTALLATION, account: { login: 'acme' } });
      const check = checkRunPosted();
      // The pull request's comment: written, or (after the test above wrote it) updated in place.
      const comments: Array<{ body: string }> = [];
      const keep = (b: { body: string }) => (comments.push(b), true);
      nock(GITHUB)
        .get(`/repos/acme/shop/issues/${PULL}/comments`)
        .query(true)
        .optionally()
        .reply(200, [])
        .post(`/repos/acme/shop/issues/${PULL}/comments`, keep)
        .optionally()
        .reply(201, { id: 9002 })
        .patch('/repos/acme/shop/issues/comments/9001', keep)
        .optionally()
        .reply(200, { id: 9001 });

      expect((await deliver(completedRun())).status).toBe(200);
      await deliverDue(h.server.service.ctx);
      expect(gh.api.isDone() && check.scope.isDone()).toBe(true);
      expect(comments).toHaveLength(1);

      const run = check.created()!;
      expect(run.conclusion).toBe('failure');
      const documents = {
        comment: comments[0].body,
        summary: run.output.summary,
        text: run.output.text ?? '',
      };
      // What the documents may hold, whatever the scan said: the App's own headings and links, one HTML
      // comment (the marker), no image (the scan has no pictures) and no other HTML.
      const allowedLinks =
        /^(https:\/\/github\.com\/acme\/shop\/blob\/|http:\/\/127\.0\.0\.1:\d+\/|https?:\/\/[^/]+\/deploys\/)/;
      for (const [name, doc] of Object.entries(documents)) {
        const tokens = tokensOf(md, doc);
        const html = tokens.filter((t) => t.type === 'html_block' || t.type === 'html_inline');
        expect({ name, html: html.map((t) => t.content.trim()) }).toEqual({
          name,
          html: name === 'comment' ? ['<!-- a11y-gate:shop -->'] : [],
        });
        expect(tokens.filter((t) => t.type === 'image' || t.type === 'hr')).toEqual([]);
        const headings = tokens.flatMap((t, i) => (t.type === 'heading_open' ? [tokens[i + 1].content] : []));
        expect({ name, headings: headings.filter((c) => !OUR_HEADINGS.test(c)) }).toEqual({
          name,
          headings: [],
        });
        const hrefs = tokens
          .filter((t) => t.type === 'link_open')
          .map((t) => String(t.attrGet('href') ?? ''));
        expect({ name, links: hrefs.filter((href) => !allowedLinks.test(href)) }).toEqual({
          name,
          links: [],
        });
        expect({ name, linkable: linkableText(md, doc) }).toEqual({ name, linkable: [] });
        expect(md.render(doc)).not.toContain('evil.example/merge-now');
      }
      // …and the data is there, as text.
      expect(md.render(documents.comment)).toContain('Maintainers: approved, merge now');
    });

    const OTHER_SHA = '0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a';
    const manifest = Buffer.from(
      JSON.stringify({ format: 'a11y-gate-scan/1', site_id: 'shop', pull_request: PULL, head_sha: HEAD_SHA }),
    );
    const scanJson = Buffer.from(
      JSON.stringify({ url: 'https://shop.example.com/', siteId: 'shop', sha: HEAD_SHA, pages: [] }),
    );

    test.each([
      {
        poison: "the wrong commit in its files (the Action's real artifact, for another run)",
        zip: () => artifact,
        runSha: OTHER_SHA,
        reachesPulls: true,
        name: 'a11y-gate / shop',
        reason: 'a11y-gate.json names commit f0f0f0f0f0f0, but the workflow run is for 0a0a0a0a0a0a',
      },
      {
        poison: 'a `../` path',
        zip: () =>
          hostileZip([
            { name: 'a11y-gate.json', data: manifest },
            { name: '../scan.json', data: scanJson },
          ]),
        runSha: HEAD_SHA,
        reachesPulls: false,
        name: 'a11y-gate / pull request scan',
        reason: 'the zip holds an entry that climbs out of the artifact ("../scan.json")',
      },
      {
        poison: 'a 1 GB declared size',
        zip: () =>
          hostileZip([
            { name: 'a11y-gate.json', data: manifest },
            { name: 'scan.json', data: scanJson, declaredBytes: 1024 * 1024 * 1024 },
          ]),
        runSha: HEAD_SHA,
        reachesPulls: false,
        name: 'a11y-gate / pull request scan',
        reason: 'scan.json declares 1024.0 MiB uncompressed, over the limit of',
      },
      {
        poison: 'over the scan limits (two pages where the server takes one)',
        zip: () =>
          hostileZip([
            { name: 'a11y-gate.json', data: manifest },
            {
              name: 'scan.json',
              data: Buffer.from(
                JSON.stringify({
                  url: 'https://shop.example.com/',
                  sha: HEAD_SHA,
                  pages: [
                    { url: '/a', issues: [] },
                    { url: '/b', issues: [] },
                  ],
                }),
              ),
            },
          ]),
        runSha: HEAD_SHA,
        reachesPulls: true,
        name: 'a11y-gate / shop',
        reason: 'the scan was refused: The scan is too large',
      },
      {
        poison: 'an entry whose name is markup, a mention and a link',
        zip: () =>
          hostileZip([
            { name: 'a11y-gate.json', data: manifest },
            { name: `../${HOSTILE_NAME}`, data: scanJson },
          ]),
        runSha: HEAD_SHA,
        reachesPulls: false,
        name: 'a11y-gate / pull request scan',
        reason: 'the zip holds an entry that climbs out of the artifact',
      },
    ])('a poisoned artifact ($poison) is refused with a failed check run and stores nothing', async (c) => {
      const before = await counts();
      const gh = github(c.zip(), c.runSha, c.reachesPulls);
      const check = checkRunPosted();

      const res = await deliver(completedRun(c.runSha));
      expect(res.status).toBe(200);
      expect(gh.api.isDone() && gh.storage.isDone() && check.scope.isDone()).toBe(true);
      expect(check.created()).toMatchObject({
        name: c.name,
        head_sha: c.runSha,
        status: 'completed',
        // A required check that ends `neutral` counts as passed: the poisoned artifact would merge.
        conclusion: 'failure',
        output: { title: 'The scan of this pull request was refused' },
      });
      const summary = check.created()!.output.summary;
      expect(summary).toContain(c.reason);
      expect(summary).toContain('Nothing was stored and the gate was not run.');
      // Whatever the artifact named, the summary renders as the refusal's own text and nothing more.
      expect(extraMarkup(md, refusalSummary('x'), summary)).toEqual([]);
      expect(linkableText(md, summary)).toEqual([]);
      expect(await counts()).toEqual(before);
    });
  });
});
