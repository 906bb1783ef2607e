import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH } from './requirements.js';

/**
 * One job of the bundled Action, as a runner lays it out: a fresh folder for its home and workspace, its
 * output and job-summary files, Debian's Chromium, the toolkit's variables for `acme/shop`, then what the
 * test adds (from the job's folder, where it needs it) and the Action's inputs (`INPUT_<NAME>`).
 */
export function actionJob(
  prefix: string,
  variables: Record<string, string> | ((dir: string) => Record<string, string>),
  inputs: Record<string, string> = {},
): { dir: string; files: { output: string; summary: string }; env: Record<string, string> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const files = { output: path.join(dir, 'output'), summary: path.join(dir, 'summary.md') };
  fs.writeFileSync(files.output, '');
  fs.writeFileSync(files.summary, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    CHROME_PATH: CHROMIUM_PATH,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: 'acme/shop',
    ...(typeof variables === 'function' ? variables(dir) : variables),
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return { dir, files, env };
}
