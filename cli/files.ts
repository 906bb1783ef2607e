import fs from 'node:fs/promises';
import path from 'node:path';

/** A file as the user named it: relative to the working folder when under it. */
export function shown(file: string): string {
  const rel = path.relative(process.cwd(), path.resolve(file));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** Writes a report, making its folder first. */
export async function writeFile(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await fs.writeFile(file, text);
}
