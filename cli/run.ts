import { ApiError } from '../client/api-client.js';
import { BrowserError } from '../scanner/browser.js';
import { findingsOf } from '../scanner/findings.js';
import { toJunit, type JunitGate } from '../scanner/junit.js';
import { PageSourceError } from '../scanner/pages.js';
import { writeResultsDir } from '../scanner/results-dir.js';
import { fingerprintOf, toSarif } from '../scanner/sarif.js';
import { scan, scanProblem, type ScanRun } from '../scanner/scan.js';
import { submittedPages } from '../scanner/scan-body.js';
import { LoginError } from '../scanner/session.js';
import { parseArgs, USAGE, USAGE_HINT, UsageError, type CommandLine } from './args.js';
import { loadConfigFile, withConfig } from './config.js';
import { BaselineFileError, readBaseline, writeBaseline } from '../scanner/baseline-file.js';
import { judgeLocally } from '../scanner/local-gate.js';
import { plural } from '../core/text/wording.js';
import { cliOptions, completeOptions, type CliOptions } from './options.js';
import { completeShardGroup, sendShard, type ShardResult } from './shards.js';
import type { DeployEvent } from '../core/gate/deploy-event.js';
import type { ServedFolderRef } from '../core/gate/served-folder.js';
import { stderrProgress } from './progress.js';
import { cliClient, servedFolder, submitAndGate } from './service.js';
import { oneLine } from '../core/text/github-markdown.js';
import { gateText, localGateText } from './gate-text.js';
import { shown, writeFile } from './files.js';
import { htmlOutput } from './html-output.js';
import { mcpCommand } from './mcp/command.js';

export const EXIT = { passed: 0, gateFailed: 1, error: 2 } as const;

const err = (line: string) => process.stderr.write(`${line}\n`);

const out = (text: string) => process.stdout.write(text);

/** A usage mistake: its one line, and where the options are told (not the whole help). */
function usageError(e: UsageError): number {
  err(`a11y-gate: ${e.message}\n${USAGE_HINT}`);
  return EXIT.error;
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

/** What a scanning job writes at its end: its reports of the gate's answer, or of a scan not judged yet. */
interface ShardReports {
  judged: (g: DeployEvent, detailsUrl: string) => Promise<void>;
  waiting: (text: string) => Promise<void>;
}

/** A sharded job's end: the gate's answer when this job asked it, else what it did and waits for. */
async function shardExit(
  result: ShardResult,
  reports: ShardReports | null,
  served: ServedFolderRef | null = null,
): Promise<number> {
  if ('missing' in result) {
    err(`a11y-gate: ${result.missing}`);
    return EXIT.gateFailed;
  }
  if ('waiting' in result) {
    process.stdout.write(`${result.waiting}\n`);
    if (reports) await reports.waiting(result.waiting);
    return EXIT.passed;
  }
  process.stdout.write(gateText(result.gate, result.detailsUrl, served));
  if (reports) await reports.judged(result.gate, result.detailsUrl);
  return result.gate.passed ? EXIT.passed : EXIT.gateFailed;
}

/** `a11y-gate complete …`: the final job of a sharded run. */
async function complete(cl: CommandLine): Promise<number> {
  let service: ReturnType<typeof completeOptions>;
  try {
    service = completeOptions(cl);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(e);
  }
  try {
    return await shardExit(await completeShardGroup(service, err), null);
  } catch (e) {
    err(`a11y-gate: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.error;
  }
}

/**
 * The gate without a service: the scan against the committed baseline file (or, with none, every
 * violation fails as pa11y-ci does); `a11y-gate baseline` and --update-baseline record the file instead.
 */
async function gateLocally(options: CliOptions, run: ScanRun, seconds: number): Promise<number> {
  const local = options.local;
  const file = shown(local.baselineFile);
  const findings = findingsOf(run.pages);
  const baseline = await readBaseline(local.baselineFile);
  // A partial scan is compared on the pages it scanned: the file's entries for the others stay.
  const partial = run.scope === 'partial' ? run.pages.filter((p) => p.ok).map((p) => p.url) : null;
  const v = judgeLocally(findings, baseline, local, new Date(), partial);
  const html = htmlOutput(options, run, err);
  const junit = (gate: JunitGate) =>
    options.junit ? writeFile(options.junit, toJunit(run.pages, findings, seconds, gate)) : Promise.resolve();
  if (local.update) {
    await writeBaseline(local.baselineFile, v.recorded);
    const gone = baseline ? `, ${v.fixed.length} no longer found and removed` : '';
    const kept = v.kept.length ? `, ${v.kept.length} of pages not scanned kept` : '';
    out(
      `Baseline written: ${plural(v.recorded.length, 'issue')} in ${file} (${v.evaluation.counts.new} not in it before${gone}${kept}` +
        `${v.evaluation.counts.waived ? `, ${v.evaluation.counts.waived} ignored` : ''}). Commit it: later scans are compared with it.\n`,
    );
    // The run that records the baseline judges nothing: JUnit says so too.
    await junit({ passed: true, new_issues: [] });
    await html.local(findings, v, true);
    return EXIT.passed;
  }
  out(localGateText(v, file, servedFolder(run)));
  if (local.prune && baseline && v.fixed.length > 0) {
    const fixed = new Set(v.fixed);
    await writeBaseline(
      local.baselineFile,
      baseline.filter((e) => !fixed.has(e)),
    );
    out(`Pruned ${plural(v.fixed.length, 'entry', 'entries')} no longer found from ${file}.\n`);
  }
  await junit({
    passed: v.evaluation.passed,
    new_issues: v.newFindings.map((f) => ({ fingerprint: fingerprintOf(f) })),
    reasons: v.evaluation.reasons,
  });
  await html.local(findings, v, false);
  return v.evaluation.passed ? EXIT.passed : EXIT.gateFailed;
}

/** The command line with the configuration file under it, read into options; throws UsageError. */
async function readOptions(cl: CommandLine): Promise<CliOptions> {
  const config = await loadConfigFile(process.cwd(), cl.values.get('config') ?? null);
  const merged = config ? withConfig(cl, config) : cl;
  return cliOptions(merged, process.env, {
    ignores: config?.ignores ?? [],
    pages: config?.pages ?? [],
    configFile: config?.file ?? null,
  });
}

/** `a11y-gate scan …` and `a11y-gate baseline …`: the exit code (0 passed, 1 gate failed, 2 usage or scan error). */
export async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'mcp') return mcpCommand(argv.slice(1), err);
  let options: CliOptions;
  try {
    const cl = parseArgs(argv);
    if (cl.switches.has('help')) {
      out(`${USAGE}\n`);
      return EXIT.passed;
    }
    if (cl.command === 'complete') return await complete(cl);
    options = await readOptions(cl);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageError(e);
  }
  try {
    // A wrong key or address is told before the scan, not after it.
    if (options.service) await cliClient(options.service, err).checkKey();
    const started = Date.now();
    const run = await scan(options.scan, stderrProgress());
    const seconds = (Date.now() - started) / 1000;
    await writeReports(options, run, seconds);
    printScan(run, seconds);
    const html = htmlOutput(options, run, err);
    const problem = scanProblem(run.pages);
    if (problem) {
      err(`a11y-gate: ${problem}`);
      await html.unjudged(`The run stopped before any gate: ${problem}`);
      return EXIT.error;
    }
    if (!options.service) return await gateLocally(options, run, seconds);
    const junit = async (g: DeployEvent) => {
      if (options.junit)
        await writeFile(options.junit, toJunit(run.pages, findingsOf(run.pages), seconds, g));
    };
    const pages = submittedPages(run, options.scan.keepPasses ? new Set() : null);
    const shard = options.scan.shard;
    if (shard) {
      const sent = await sendShard(options.service, shard, run, pages, err);
      const part = `This job scanned shard ${shard.index} of ${shard.total}: its pages' issues are listed here`;
      return await shardExit(
        sent,
        {
          judged: async (g, url) => {
            await junit(g);
            await html.service(g, url, [`${part}; the counts are the whole scan's.`]);
          },
          waiting: (text) => html.unjudged(`${part}. ${text}`),
        },
        servedFolder(run),
      );
    }
    const outcome = await submitAndGate(options.service, run, pages, err);
    if (!outcome.gate) {
      await html.unjudged(`Sent to the service as scan ${outcome.scan.id}; no gate was asked (--gate).`);
      return EXIT.passed;
    }
    const g = outcome.gate;
    out(gateText(g, outcome.detailsUrl, servedFolder(run)));
    await junit(g);
    await html.service(g, outcome.detailsUrl);
    return g.passed ? EXIT.passed : EXIT.gateFailed;
  } catch (e) {
    const known = [ApiError, BrowserError, PageSourceError, LoginError, UsageError, BaselineFileError].some(
      (t) => e instanceof t,
    );
    err(`a11y-gate: ${e instanceof Error ? e.message : String(e)}`);
    if (!known && e instanceof Error && e.stack) err(e.stack);
    return EXIT.error;
  }
}
