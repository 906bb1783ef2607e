import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { run } from './run.js';

/*
 * .github/workflows/release.yml: its trigger and order, and its own step scripts run by bash as the runner
 * runs them (`shell: bash`), against small git repositories made here (a bare one stands for GitHub; a fake
 * `gh` records what it is asked). Nothing reaches GitHub.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  defaults: { run: { shell: string } };
  jobs: Record<string, { steps: Step[] }>;
}
const workflow = yaml.load(
  fs.readFileSync(path.join(root, '.github', 'workflows', 'release.yml'), 'utf8'),
) as Workflow;
const steps = workflow.jobs.release.steps;
const stepIndex = (pattern: RegExp) => steps.findIndex((s) => pattern.test(s.run ?? s.uses ?? ''));
const script = (pattern: RegExp) => {
  const step = steps[stepIndex(pattern)];
  if (!step?.run) throw new Error(`no step runs ${String(pattern)}`);
  return step.run;
};

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-release-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
const newDir = (name: string) => fs.mkdtempSync(path.join(scratch, `${name}-`));

/** An environment with no git or npm settings of this machine. */
const baseEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: scratch,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Release Test',
  GIT_AUTHOR_EMAIL: 'release@example.com',
  GIT_COMMITTER_NAME: 'Release Test',
  GIT_COMMITTER_EMAIL: 'release@example.com',
  npm_config_update_notifier: 'false',
  ...extra,
});

/** Runs a step's script as `shell: bash` does: bash --noprofile --norc -eo pipefail {0}. */
function runStep(text: string, cwd: string, env: Record<string, string>) {
  const file = path.join(newDir('step'), 'step.sh');
  fs.writeFileSync(file, text);
  return run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], cwd, baseEnv(env));
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const r = await run('git', args, cwd, baseEnv());
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

test('runs on version tags vX.Y.Z only, may write the repository, in bash', () => {
  expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
  expect(workflow.permissions).toEqual({ contents: 'write' });
  expect(workflow.defaults.run.shell).toBe('bash');
  expect(Object.keys(workflow.jobs)).toEqual(['release']);
});

test('checks the version and dist/ before it publishes, then moves the major tag', () => {
  const order = [
    /^actions\/checkout@/,
    /GITHUB_REF_NAME#v/,
    /^npm ci\b/,
    /npm run build:action[\s\S]*git diff --quiet --exit-code -- dist/,
    /^npm run pack:cli$/,
    /gh release create "\$GITHUB_REF_NAME"/,
    /git push --force origin "refs\/tags\/\$major"/,
    /npm publish/,
  ].map(stepIndex);
  expect(order.every((i) => i >= 0)).toBe(true);
  expect(order).toEqual([...order].sort((a, b) => a - b));
  // Scripts read the tag from the environment: no expression is pasted into a shell script.
  for (const step of steps) expect(step.run ?? '').not.toContain('${{');
});

describe('the version step', () => {
  const text = script(/GITHUB_REF_NAME#v/);
  async function check(tag: string, rootVersion: string, cliVersion: string) {
    const dir = newDir('version');
    fs.mkdirSync(path.join(dir, 'packages', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ version: rootVersion }));
    fs.writeFileSync(
      path.join(dir, 'packages', 'cli', 'package.json'),
      JSON.stringify({ version: cliVersion }),
    );
    const output = path.join(dir, 'github-output');
    const r = await runStep(text, dir, { GITHUB_REF_NAME: tag, GITHUB_OUTPUT: output });
    return { ...r, output: fs.existsSync(output) ? fs.readFileSync(output, 'utf8') : '' };
  }

  test('passes a tag that both package.json files carry, and outputs the version', async () => {
    const ok = await check('v1.4.2', '1.4.2', '1.4.2');
    expect(ok.code).toBe(0);
    expect(ok.output).toBe('version=1.4.2\n');
  });

  test('fails a version that a package.json does not carry, or a tag that is not vX.Y.Z', async () => {
    const cli = await check('v1.4.2', '1.4.2', '1.4.1');
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain('packages/cli/package.json says version 1.4.1, the tag v1.4.2');
    expect((await check('v1.4.2', '1.4.0', '1.4.2')).code).toBe(1);
    const pre = await check('v1.5.0-rc.1', '1.5.0-rc.1', '1.5.0-rc.1');
    expect(pre.code).toBe(1);
    expect(pre.stdout).toContain('is not a release tag');
    expect(pre.output).toBe('');
  });
});

describe('the dist/ step', () => {
  const text = script(/git diff --quiet --exit-code -- dist/);
  let repo: string;
  beforeAll(async () => {
    // A repository whose build:action writes dist/ from BUILD (and dist/extra.js when EXTRA is set).
    repo = newDir('dist');
    fs.writeFileSync(
      path.join(repo, 'package.json'),
      JSON.stringify({ name: 'fixture', private: true, scripts: { 'build:action': 'node build.cjs' } }),
    );
    fs.writeFileSync(
      path.join(repo, 'build.cjs'),
      "const fs = require('fs'); fs.mkdirSync('dist', { recursive: true });\n" +
        "fs.writeFileSync('dist/index.js', process.env.BUILD);\n" +
        "if (process.env.EXTRA) fs.writeFileSync('dist/extra.js', '');\n",
    );
    fs.mkdirSync(path.join(repo, 'dist'));
    fs.writeFileSync(path.join(repo, 'dist', 'index.js'), 'built from the tagged sources\n');
    await git(repo, 'init', '-q', '-b', 'main');
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'fixture');
  });
  afterEach(() => git(repo, 'checkout', '-q', '--', 'dist').then(() => git(repo, 'clean', '-fdq', 'dist')));

  test('passes when a fresh build leaves dist/ as committed', async () => {
    const r = await runStep(text, repo, { BUILD: 'built from the tagged sources\n' });
    expect(r.stdout + r.stderr).not.toContain('::error');
    expect(r.code).toBe(0);
  });

  test('fails when a fresh build changes dist/', async () => {
    const r = await runStep(text, repo, { BUILD: 'built from newer sources\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("dist/ differs from a fresh build: run 'npm run build:action'");
    expect(r.stdout).toContain('dist/index.js');
  });

  test('fails when a fresh build adds a file to dist/', async () => {
    const r = await runStep(text, repo, { BUILD: 'built from the tagged sources\n', EXTRA: '1' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('?? dist/extra.js');
  });
});

describe('the publish step', () => {
  test('creates the release of the pushed tag with the CLI tarball attached', async () => {
    const bin = newDir('bin');
    const log = path.join(bin, 'gh.log');
    fs.writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${log}'\n`, { mode: 0o755 });
    const r = await runStep(script(/gh release create/), newDir('publish'), {
      GITHUB_REF_NAME: 'v1.4.2',
      VERSION: '1.4.2',
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(r.code).toBe(0);
    const args = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(args.slice(0, 4)).toEqual(['release', 'create', 'v1.4.2', 'a11y-gate-cli-1.4.2.tgz']);
    expect(args).toContain('--verify-tag');
  });
});

describe('the major tag step', () => {
  const text = script(/git push --force origin "refs\/tags\/\$major"/);
  let origin: string;
  let clone: string;
  const commits: Record<string, string> = {};

  /** A commit on the clone, tagged and pushed to origin as a release would be. */
  async function release(tag: string, parent: string): Promise<string> {
    await git(clone, 'checkout', '-q', '--detach', parent);
    await git(clone, 'commit', '-q', '--allow-empty', '-m', tag);
    await git(clone, 'tag', '-a', tag, '-m', tag);
    await git(clone, 'push', '-q', 'origin', `refs/tags/${tag}`);
    commits[tag] = await git(clone, 'rev-parse', 'HEAD');
    return commits[tag];
  }
  const tagOnOrigin = (tag: string) =>
    run('git', ['rev-parse', '--verify', '-q', `refs/tags/${tag}^{commit}`], origin, baseEnv()).then((r) =>
      r.stdout.trim(),
    );
  const moveFor = (tag: string) => runStep(text, clone, { GITHUB_REF_NAME: tag });

  beforeAll(async () => {
    origin = newDir('origin');
    await git(origin, 'init', '-q', '--bare', '-b', 'main');
    clone = newDir('clone');
    await git(clone, 'init', '-q', '-b', 'main');
    await git(clone, 'remote', 'add', 'origin', origin);
    await git(clone, 'commit', '-q', '--allow-empty', '-m', 'start');
    await git(clone, 'push', '-q', 'origin', 'main');
  });

  test('the first release of a major creates its tag on origin', async () => {
    await release('v1.0.0', 'main');
    const r = await moveFor('v1.0.0');
    expect(r.code).toBe(0);
    expect(await tagOnOrigin('v1')).toBe(commits['v1.0.0']);
  });

  test('a newer release moves it', async () => {
    await release('v1.1.0', commits['v1.0.0']);
    expect((await moveFor('v1.1.0')).code).toBe(0);
    expect(await tagOnOrigin('v1')).toBe(commits['v1.1.0']);
  });

  test('a fix of an older line leaves it on the newest release; another major gets its own tag', async () => {
    await release('v1.0.1', commits['v1.0.0']);
    const fix = await moveFor('v1.0.1');
    expect(fix.code).toBe(0);
    expect(fix.stdout).toContain('v1.1.0 is newer than v1.0.1: v1 stays where it is');
    expect(await tagOnOrigin('v1')).toBe(commits['v1.1.0']);
    await release('v2.0.0', commits['v1.1.0']);
    expect((await moveFor('v2.0.0')).code).toBe(0);
    expect(await tagOnOrigin('v2')).toBe(commits['v2.0.0']);
    expect(await tagOnOrigin('v1')).toBe(commits['v1.1.0']);
  });

  test('v1.10.0 is newer than v1.9.0', async () => {
    await release('v1.9.0', commits['v1.1.0']);
    await release('v1.10.0', commits['v1.9.0']);
    expect((await moveFor('v1.10.0')).code).toBe(0);
    expect((await moveFor('v1.9.0')).stdout).toContain('v1.10.0 is newer than v1.9.0');
    expect(await tagOnOrigin('v1')).toBe(commits['v1.10.0']);
  });
});
