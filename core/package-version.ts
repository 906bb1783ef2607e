import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version of the package a module belongs to: the nearest package.json above the module (`import.meta.url`)
 * that has one. The same for the sources, their compiled copies and a bundle, whatever their depth.
 */
export function packageVersion(moduleUrl: string): string {
  for (let dir = path.dirname(fileURLToPath(moduleUrl)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const version = fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown }).version
      : undefined;
    if (typeof version === 'string') return version;
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
