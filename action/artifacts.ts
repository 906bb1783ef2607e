import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as core from '@actions/core';
import { DefaultArtifactClient } from '@actions/artifact';

/** A file of an artifact: its name at the artifact's root and its text. */
export interface ArtifactFile {
  name: string;
  text: string;
}

/**
 * Leaves files as a workflow artifact of this run (the fork hand-off's scan, the baseline branch's
 * baseline), and says where they went, for the log and the summary. Outside a GitHub Actions job (no
 * `ACTIONS_RUNTIME_TOKEN`) there is no artifact store: the files stay in a folder under `RUNNER_TEMP`
 * (else the system's temporary folder), which the answer names.
 */
export async function leaveArtifact(
  name: string,
  files: readonly ArtifactFile[],
  retentionDays?: number,
): Promise<{ where: string; dir: string }> {
  const dir = await fs.mkdtemp(path.join(process.env.RUNNER_TEMP || os.tmpdir(), `${name}-`));
  const paths = files.map((f) => path.join(dir, f.name));
  await Promise.all(files.map((f, i) => fs.writeFile(paths[i], f.text)));
  if (!process.env.ACTIONS_RUNTIME_TOKEN) {
    core.info(`Not in a GitHub Actions job: the artifact's files are in ${dir}.`);
    return { where: `the folder ${dir} (no artifact store outside GitHub Actions)`, dir };
  }
  const { id, size } = await new DefaultArtifactClient().uploadArtifact(
    name,
    paths,
    dir,
    retentionDays ? { retentionDays } : {},
  );
  core.info(`Uploaded artifact ${name} (id ${id ?? '?'}, ${size ?? '?'} bytes).`);
  return { where: `the artifact \`${name}\``, dir };
}
