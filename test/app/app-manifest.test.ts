import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { WEBHOOKS_PATH } from '../../server/host.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The fields of GitHub's App manifest format that app.yml sets. */
interface AppManifest {
  name: string;
  description: string;
  url: string;
  public: boolean;
  hook_attributes: { url: string; active: boolean };
  default_permissions: Record<string, string>;
  default_events: string[];
}

const manifest = yaml.load(fs.readFileSync(path.join(root, 'app.yml'), 'utf8')) as AppManifest;

describe('app.yml (the GitHub App manifest)', () => {
  test('names the App and says what it does', () => {
    expect(manifest.name).toBe('a11y-gate');
    expect(typeof manifest.description).toBe('string');
    expect(manifest.description.length).toBeGreaterThan(20);
    expect(manifest.url).toMatch(/^https:\/\//);
    expect(manifest.public).toBe(false);
  });

  test('asks for exactly the permissions docs/github-app.md explains', () => {
    expect(manifest.default_permissions).toEqual({
      actions: 'read',
      checks: 'write',
      metadata: 'read',
      pull_requests: 'write',
    });
  });

  test('subscribes to check_run, check_suite, merge_group and workflow_run; installation is not listed because GitHub refuses it', () => {
    // GitHub delivers `installation` to every App and rejects a manifest that names it
    // ("Default events unsupported: installation"), so the App receives it without subscribing.
    expect([...manifest.default_events].sort()).toEqual([
      'check_run',
      'check_suite',
      'merge_group',
      'workflow_run',
    ]);
  });

  test('the webhook goes to the path the server mounts Probot on', () => {
    expect(manifest.hook_attributes.active).toBe(true);
    expect(new URL(manifest.hook_attributes.url).pathname).toBe(WEBHOOKS_PATH);
  });

  test('holds only keys GitHub’s manifest format knows', () => {
    const known = [
      'name',
      'url',
      'hook_attributes',
      'redirect_url',
      'callback_urls',
      'setup_url',
      'description',
      'public',
      'default_events',
      'default_permissions',
      'request_oauth_on_install',
      'setup_on_update',
    ];
    expect(Object.keys(manifest).filter((k) => !known.includes(k))).toEqual([]);
  });
});
