import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { docsAreCurrent, END, renderTables, START, withTables } from '../../action/docs-table.js';
import { parseInputs } from '../../action/inputs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const actionYml = fs.readFileSync(path.join(root, 'action.yml'), 'utf8');

/** action.yml's metadata, as far as the tests read it. */
interface ActionMetadata {
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description?: string }>;
  runs: unknown;
  branding: unknown;
}

test('docs/action.md carries the inputs/outputs tables generated from action.yml', () => {
  // On failure: npx tsx action/docs-table.ts
  expect(docsAreCurrent()).toBe(true);
});

test('action.yml declares exactly the inputs and outputs docs/action.md documents', () => {
  const meta = yaml.load(actionYml) as ActionMetadata;
  // Every input the action reads is declared (and documented), and nothing declared goes unread.
  const read = new Set<string>();
  const given: Record<string, string> = {
    'api-url': 'https://a11y.example.com',
    'api-key': 'a11y_key',
    'site-id': 'shop',
    sha: 'abcdef1',
    urls: 'https://shop.example.com/',
  };
  parseInputs((name) => (read.add(name), given[name] ?? ''), {});
  expect([...read].sort()).toEqual(Object.keys(meta.inputs).sort());
  expect(Object.keys(meta.inputs).slice(0, 6)).toEqual([
    'api-url',
    'api-key',
    'site-id',
    'sha',
    'results',
    'url',
  ]);
  // Empty on a fork's pull request, where the scan is handed to the GitHub App, and both empty where the
  // step gates without a service (docs/action.md).
  expect(meta.inputs['api-key'].required).toBe(false);
  expect(meta.inputs['api-url'].required).toBe(false);
  expect(meta.inputs['site-id'].required).toBe(true);
  expect(meta.inputs['fail-on-critical'].default).toBe('true');
  expect(meta.inputs['fail-on-error'].default).toBe('true');
  expect(Object.keys(meta.outputs)).toEqual(['passed', 'deploy-id', 'scan-id', 'new-issues', 'details-url']);
  expect(meta.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  expect(meta.branding).toEqual({
    icon: expect.any(String) as unknown,
    color: expect.any(String) as unknown,
  });
});

test('a changed description is caught', () => {
  const docs = fs.readFileSync(path.join(root, 'docs', 'action.md'), 'utf8');
  const changed = renderTables(
    actionYml.replace('Fail the gate on any new critical issue.', 'Something else.'),
  );
  expect(withTables(docs, changed)).not.toBe(docs);
  expect(() => withTables('no markers here', changed)).toThrow(START);
  expect(withTables(`${START}\nold\n${END}`, 'new')).toBe(`${START}\n\nnew\n\n${END}`);
});
