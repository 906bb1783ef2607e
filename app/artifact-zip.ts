import { readZipFiles } from '../core/github/artifact-zip.js';
import { ARTIFACT_NAME, MANIFEST_FILE, SCAN_FILE, type ZipLimits } from '../core/github/fork-artifact.js';

/** The two files the App reads from an `a11y-gate-scan` artifact, still untrusted. */
export interface ArtifactFiles {
  manifest: Buffer;
  scan: Buffer;
}

/** `a11y-gate.json` and `scan.json` from a fork's artifact, read by the kernel's zip reader and its limits. */
export async function readArtifactZip(zip: Buffer, limits: ZipLimits): Promise<ArtifactFiles> {
  const files = await readZipFiles(zip, limits, {
    artifact: ARTIFACT_NAME,
    files: [MANIFEST_FILE, SCAN_FILE],
  });
  return {
    manifest: files.get(MANIFEST_FILE) ?? Buffer.alloc(0),
    scan: files.get(SCAN_FILE) ?? Buffer.alloc(0),
  };
}
