import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as prettier from 'prettier';
import { benchTargets, type BenchSuite } from './env.js';
import { summarize, type SuiteFigures } from './summary.js';

/**
 * `npm run bench [-- --json FILE] [-- --only NAME]`: runs every suite in bench/suites/ in name order,
 * on SQLite and (when TEST_DATABASE_URL or BENCH_DATABASE_URL is set) PostgreSQL, prints each
 * suite's table and a summary of every figure beside its target, and writes the figures as JSON
 * (`{ingest: {...}, gate: {...}, vpat: {...}, load: {...}, postgres: {...}, run: {...}}`).
 * Exits 1 when a target is missed, so a regression is visible in CI logs and scripts.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined;
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const db = args.includes('--db') ? args[args.indexOf('--db') + 1] : undefined;
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'suites');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const figures: SuiteFigures[] = [];
  const failed: string[] = [];
  const started = Date.now();
  const suites: BenchSuite[] = [];
  for (const file of files) {
    const suite = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: BenchSuite };
    suites.push(suite.default);
  }
  if (only && !suites.some((s) => s.name === only)) {
    throw new Error(`no suite named "${only}" (there are: ${suites.map((s) => s.name).join(', ')})`);
  }
  for (const suite of suites) {
    if (only && suite.name !== only) continue;
    for (const target of benchTargets()) {
      if (db && target.kind !== db) continue;
      console.log(`\n## ${suite.name} (${target.kind})`);
      const suiteStarted = Date.now();
      try {
        const result = await suite.run(target);
        figures.push({ suite: suite.name, kind: target.kind, figures: result });
      } catch (err) {
        // One broken suite must not hide the figures of the others: record it and go on.
        console.error(`${suite.name} (${target.kind}) failed:`, err);
        failed.push(`${suite.name} (${target.kind}): ${err instanceof Error ? err.message : String(err)}`);
        figures.push({ suite: suite.name, kind: target.kind, figures: { error: String(err) } });
      }
      console.log(`(${suite.name}, ${target.kind}: ${Math.round((Date.now() - suiteStarted) / 1000)} s)`);
    }
  }

  const summary = summarize(figures);
  const { rows, json } = summary;
  const missed = [...summary.missed, ...failed.map((f) => `suite failed: ${f.split('\n')[0]}`)];
  console.log('\n## summary');
  console.table(rows);
  if (jsonFile) {
    const out = {
      ...json,
      run: {
        commit: gitCommit(),
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model,
        seconds: Math.round((Date.now() - started) / 1000),
        targets_missed: missed,
      },
    };
    // Formatted as the repository formats JSON, so a committed result passes `npm run lint`.
    const options = (await prettier.resolveConfig(path.resolve(jsonFile))) ?? {};
    fs.writeFileSync(jsonFile, await prettier.format(JSON.stringify(out), { ...options, parser: 'json' }));
    console.log(`\nwrote ${jsonFile}`);
  }
  if (missed.length > 0) {
    console.error(`\ntargets missed: ${missed.join('; ')}`);
    process.exitCode = 1;
  }
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
