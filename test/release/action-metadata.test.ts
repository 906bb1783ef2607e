import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { run } from './run.js';

/*
 * action.yml and the workflows against the published schemas (@action-validator/cli), and action.yml against
 * what the GitHub Marketplace's release form accepts (docs/release.md).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const validator = path.join(root, 'node_modules', '@action-validator', 'cli', 'cli.mjs');
const workflowsDir = path.join(root, '.github', 'workflows');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'a11y-validate-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The validator decides by the file name: action.yml/action.yaml is an action, anything else a workflow. */
const validate = (file: string) => run(process.execPath, [validator, file], root, { PATH: process.env.PATH });

function writeScratch(name: string, text: string): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'f-'));
  fs.writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}

const actionText = fs.readFileSync(path.join(root, 'action.yml'), 'utf8');
const action = yaml.load(actionText) as {
  name: string;
  description: string;
  author: string;
  branding: { icon: string; color: string };
  runs: { using: string; main: string };
};

test.each(fs.readdirSync(workflowsDir).filter((f) => /\.ya?ml$/.test(f)))(
  'workflow %s is valid',
  async (file) => {
    const result = await validate(path.join(workflowsDir, file));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  },
);

test('the validator catches a broken workflow (a job without runs-on, a step key misspelt)', async () => {
  const text = fs.readFileSync(path.join(workflowsDir, 'release.yml'), 'utf8');
  const broken = text.replace(/^ {4}runs-on: .*\n/m, '').replace(/^ {4}steps:$/m, '    step:');
  expect(broken).not.toBe(text);
  const result = await validate(writeScratch('release.yml', broken));
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('"errors"');
});

/*
 * @action-validator/core 0.6.0 (its newest release on npm) knows runs.using node12, node16 and node20, not
 * node24, which the runners have run since: the schema check sees node20 in its place, and the real value is
 * checked here on its own.
 */
test('action.yml is valid (runs.using node24 checked on its own)', async () => {
  expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  const forSchema = actionText.replace(/^(\s+using:\s*)'node24'$/m, "$1'node20'");
  expect(forSchema).not.toBe(actionText);
  const result = await validate(writeScratch('action.yml', forSchema));
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const broken = await validate(writeScratch('action.yml', forSchema.replace(/^runs:$/m, 'run:')));
  expect(broken.code).toBe(1);
});

// The Marketplace's form: a description under 125 characters, one of nine colours, a Feather icon that is not
// one of those it excludes.
const COLOURS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'];
const EXCLUDED_ICONS = [
  'coffee',
  'columns',
  'divide-circle',
  'divide-square',
  'divide',
  'frown',
  'hexagon',
  'key',
  'meh',
  'mouse-pointer',
  'smile',
  'tool',
  'x-octagon',
];

test('action.yml carries what the Marketplace listing needs', () => {
  expect(action.name).toBe('a11y-gate');
  expect(action.author.length).toBeGreaterThan(0);
  expect(action.description.length).toBeGreaterThan(20);
  expect(action.description.length).toBeLessThan(125);
  expect(COLOURS).toContain(action.branding.color);
  expect(action.branding.icon).toMatch(/^[a-z][a-z0-9-]*$/);
  expect(EXCLUDED_ICONS).not.toContain(action.branding.icon);
  expect(fs.existsSync(path.join(root, action.runs.main))).toBe(true);
});
