import fs from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../client/api-client.js';
import { BrowserError } from '../scanner/browser.js';
import { findingsOf } from '../scanner/findings.js';
import { toJunit } from '../scanner/junit.js';
import { PageSourceError } from '../scanner/pages.js';
import { writeResultsDir } from '../scanner/results-dir.js';
import { toSarif } from '../scanner/sarif.js';
import { scan, scanProblem, type ScanRun } from '../scanner/scan.js';
import { submittedPages } from '../scanner/scan-body.js';
import { LoginError } from '../scanner/session.js';
import { parseArgs, USAGE, UsageError, type CommandLine } from './args.js';
import { cliOptions, completeOptions, type CliOptions } from './options.js';
import { completeShardGroup, sendShard, type ShardResult } from './shards.js';
import type { DeployEvent } from '../core/gate/deploy-event.js';
import { stderrProgress } from './progress.js';
import { submitAndGate } from './service.js';
import { oneLine } from '../core/text/github-markdown.js';
import { gateText } from './gate-text.js';

export const EXIT = { passed: 0, gateFailed: 1, error: 2 } as const;

const err = (line: string) => process.stderr.write(`${line}\n`);

async function writeFile(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await fs.writeFile(file, text);
}

async function writeReports(options: CliOptions, run: ScanRun, seconds: number): Promise<void> {
  const findings = findingsOf(run.pages);
  if (options.out) await writeResultsDir(options.out, run.pages);
  if (options.junit) await writeFile(options.junit, toJunit(run.pages, findings, seconds));
  if (options.sarif) {
    const sarif = toSarif(findings, { toolVersion: run.engine.version });
    await writeFile(options.sarif, JSON.stringify(sarif.log, null, 2) + '\n');
    err(
      `SARIF: ${sarif.located} results in ${options.sarif}; ${sarif.unlocated} findings without a location left out`,
    );
  }
}

function printScan(run: ScanRun, seconds: number): void {
  const failed = run.pages.filter((p) => !p.ok);
  const violations = findingsOf(run.pages).filter((f) => f.kind === 'violation').length;
  process.stdout.write(
    `Scanned ${run.pages.length - failed.length} of ${run.pages.length} pages in ${seconds.toFixed(1)} s: ` +
      `${violations} violations (axe-core ${run.engine.version})\n`,
  );
  for (const p of failed)
    process.stdout.write(`  not scanned: ${oneLine(p.url)}: ${oneLine(p.error ?? '')}\n`);
}

/** A sharded job's end: the gate's answer when this job asked it, else what it did and waits for. */
async function shardExit(
  result: ShardResult,
  junit: ((g: DeployEvent) => Promise<void>) | null,
): Promise<number> {
  if ('missing' in result) {
    err(`a11y-gate: ${result.missing}`);
    return EXIT.gateFailed;
  }
  if ('waiting' in result) {
    process.stdout.write(`${result.waiting}\n`);
    return EXIT.passed;
  }
  process.stdout.write(gateText(result.gate, result.detailsUrl));
  if (junit) await junit(result.gate);
  return result.gate.passed ? EXIT.passed : EXIT.gateFailed;
}

/** `a11y-gate complete …`: the final job of a sharded run. */
async function complete(cl: CommandLine): Promise<number> {
  let service: ReturnType<typeof completeOptions>;
  try {
    service = completeOptions(cl);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`a11y-gate: ${e.message}\n\n${USAGE}`);
    return EXIT.error;
  }
  try {
    return await shardExit(await completeShardGroup(service, err), null);
  } catch (e) {
    err(`a11y-gate: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.error;
  }
}

/** `a11y-gate scan …`: the exit code (0 passed, 1 gate failed, 2 usage or scan error). */
export async function main(argv: string[]): Promise<number> {
  let options: CliOptions;
  try {
    const cl = parseArgs(argv);
    if (cl.switches.has('help')) {
      process.stdout.write(`${USAGE}\n`);
      return EXIT.passed;
    }
    if (cl.command === 'complete') return await complete(cl);
    options = cliOptions(cl);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`a11y-gate: ${e.message}\n\n${USAGE}`);
    return EXIT.error;
  }
  try {
    const started = Date.now();
    const run = await scan(options.scan, stderrProgress());
    const seconds = (Date.now() - started) / 1000;
    await writeReports(options, run, seconds);
    printScan(run, seconds);
    const problem = scanProblem(run.pages);
    if (problem) {
      err(`a11y-gate: ${problem}`);
      return EXIT.error;
    }
    if (!options.service) return EXIT.passed;
    if (options.scan.shard) {
      const sent = await sendShard(options.service, options.scan.shard, run, submittedPages(run), err);
      return await shardExit(
        sent,
        options.junit
          ? (g) => writeFile(options.junit!, toJunit(run.pages, findingsOf(run.pages), seconds, g))
          : null,
      );
    }
    const outcome = await submitAndGate(options.service, run, submittedPages(run), err);
    if (!outcome.gate) return EXIT.passed;
    const g = outcome.gate;
    process.stdout.write(gateText(g, outcome.detailsUrl));
    if (options.junit) await writeFile(options.junit, toJunit(run.pages, findingsOf(run.pages), seconds, g));
    return g.passed ? EXIT.passed : EXIT.gateFailed;
  } catch (e) {
    const known = [ApiError, BrowserError, PageSourceError, LoginError].some((t) => e instanceof t);
    err(`a11y-gate: ${e instanceof Error ? e.message : String(e)}`);
    if (!known && e instanceof Error && e.stack) err(e.stack);
    return EXIT.error;
  }
}
