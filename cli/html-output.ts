import path from 'node:path';
import type { DeployEvent } from '../core/gate/deploy-event.js';
import { localReport, serviceReport, unjudgedReport, type HtmlReport } from '../scanner/html-report/model.js';
import { renderHtmlReport } from '../scanner/html-report/render.js';
import type { Finding } from '../scanner/findings.js';
import type { LocalVerdict } from '../scanner/local-gate.js';
import type { ScanRun } from '../scanner/scan.js';
import { shown, writeFile } from './files.js';
import { openReport } from './open-report.js';
import type { CliOptions } from './options.js';

/**
 * The HTML report of one run (`--html FILE`, `--open`), in whichever way the run was judged: each method
 * writes the report and, with `--open`, opens it; without either option they do nothing.
 */
export function htmlOutput(
  options: Pick<CliOptions, 'html' | 'open' | 'local'>,
  run: ScanRun,
  log: (line: string) => void,
) {
  const write = async (report: HtmlReport) => {
    if (!options.html) return;
    await writeFile(options.html, renderHtmlReport(report));
    log(`HTML report: ${shown(options.html)}`);
    if (options.open) await openReport(path.resolve(options.html), log);
  };
  return {
    /** The gate without a service, against the baseline file (or none); `recorded`: the run wrote it. */
    local: (findings: readonly Finding[], v: LocalVerdict, recorded: boolean) =>
      write(
        localReport(run, findings, v, {
          baselineFile: shown(options.local.baselineFile),
          ignores: options.local.ignores,
          recorded,
          now: new Date(),
        }),
      ),
    /** The service's deploy event. */
    service: (gate: DeployEvent, detailsUrl: string | null, notes: string[] = []) =>
      write(serviceReport(run, gate, { detailsUrl, now: new Date(), notes })),
    /** No gate judged this run's scan: why not. */
    unjudged: (why: string) => write(unjudgedReport(run, why, new Date())),
  };
}
