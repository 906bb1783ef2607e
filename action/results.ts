import fs from 'node:fs/promises';
import path from 'node:path';
import * as glob from '@actions/glob';
import type { ScanBodyPage, ScanRequest } from '../client/wire-types.js';
import type { ActionInputs } from './inputs.js';
import { InputError } from './inputs.js';
import { parseResults, ResultsFormatError, type ResultFormat } from './result-formats.js';

export interface LoadedResults {
  scan: ScanRequest;
  files: { file: string; format: ResultFormat; pages: number }[];
  warnings: string[];
  /** Worth a line in the log, not a warning annotation. */
  notes: string[];
}

/**
 * Finds the files matching the `results` glob (newline-separated patterns, `!` excludes, as in
 * actions/upload-artifact), parses each and merges them into ONE scan body for this commit.
 */
export async function loadResults(inputs: ActionInputs, cwd: string = process.cwd()): Promise<LoadedResults> {
  const pattern = inputs.results;
  if (!pattern) throw new InputError('results', 'is empty');
  const patterns = pattern
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const negated = p.startsWith('!');
      const body = negated ? p.slice(1) : p;
      return (negated ? '!' : '') + (path.isAbsolute(body) ? body : path.join(cwd, body));
    })
    .join('\n');
  const globber = await glob.create(patterns, { matchDirectories: false });
  // Sorted so the page order (and so the body and its Idempotency-Key) does not depend on the file system.
  const files = (await globber.glob()).sort();
  if (files.length === 0) {
    throw new InputError('results', `matched no files ("${pattern}" in ${cwd})`);
  }

  const pages: ScanBodyPage[] = [];
  const warnings: string[] = [];
  const notes: string[] = [];
  const loaded: LoadedResults['files'] = [];
  let engine: ScanRequest['engine'];
  let fileUrl: string | undefined;
  for (const absolute of files) {
    const file = path.relative(cwd, absolute) || absolute;
    let data: unknown;
    try {
      data = JSON.parse(decodeText(await fs.readFile(absolute)));
    } catch (err) {
      throw new ResultsFormatError(file, `is not valid JSON (${(err as Error).message})`);
    }
    const parsed = parseResults(file, data);
    pages.push(...parsed.pages);
    warnings.push(...parsed.warnings);
    loaded.push({ file, format: parsed.format, pages: parsed.pages.length });
    if (parsed.engine) {
      if (!engine) engine = parsed.engine;
      else if (engine.name !== parsed.engine.name) {
        notes.push(
          `${file}: results from ${parsed.engine.name} are mixed with ${engine.name}; the scan names ${engine.name}`,
        );
      }
    }
    fileUrl ??= parsed.url;
  }

  // A scan without pages passes the gate (nothing new, everything "fixed") while it tested nothing: the
  // site was down for pa11y-ci, or the scanner wrote an empty array. That must fail, not pass.
  if (pages.length === 0) {
    throw new InputError(
      'results',
      `holds no tested page (${files.length} ${files.length === 1 ? 'file' : 'files'}): an empty scan would pass the gate without testing anything`,
    );
  }

  // The scanned site: the `url` input, else what a native file says, else the origin of the first page.
  const url = inputs.url ?? fileUrl ?? originOf(pages[0]?.url);
  if (!url) {
    throw new InputError('url', 'is required: the results have no pages to take the site URL from');
  }

  const scan: ScanRequest = { url, siteId: inputs.siteId, sha: inputs.sha, pages };
  if (inputs.branch) scan.branch = inputs.branch;
  if (engine) scan.engine = engine.version ? engine : { name: engine.name };
  if (inputs.runAttempt) scan.run_attempt = inputs.runAttempt;
  return { scan, files: loaded, warnings, notes };
}

/**
 * UTF-8, with or without a byte order mark, or UTF-16LE with one: what Windows PowerShell 5's `>` writes
 * (`pa11y-ci --json > report.json` on a Windows runner). JSON.parse refuses a BOM.
 */
function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin + '/';
  } catch {
    return undefined;
  }
}
