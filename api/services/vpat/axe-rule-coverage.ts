import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { AxeRuleMeta } from '../../../core/catalog/explanation.js';
import { buildRuleCoverage, type RuleCoverage } from '../../domain/vpat/rule-coverage.js';

interface AxeRules {
  version: string;
  rules: AxeRuleMeta[];
}

let read: Promise<AxeRules> | undefined;
let loaded: Promise<RuleCoverage> | undefined;

/**
 * axe-core's rule list read in a worker thread: the module is large, and compiling it on the server's
 * own thread held every other request for as long as that took (bench/README.md, "Large scans"). The
 * worker sends back only each rule's id, tags, help, description and help URL, and exits.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const axe = require(workerData);
parentPort.postMessage({
  version: axe.version,
  rules: axe.getRules().map((r) => ({
    ruleId: r.ruleId, tags: r.tags, help: r.help, description: r.description, helpUrl: r.helpUrl,
  })),
});
`;

function readAxeRules(): Promise<AxeRules> {
  const axePath = createRequire(import.meta.url).resolve('axe-core');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: axePath });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`axe-core rule worker exited with ${code}`)));
  });
}

/**
 * Rule coverage of the installed axe-core package (`axe.getRules()`: every rule with its tags), read once
 * per process and only when first needed: a report, or a pa11y page.
 */
export function axeRuleCoverage(): Promise<RuleCoverage> {
  loaded ??= axeRuleList().then(({ rules, version }) =>
    buildRuleCoverage(
      rules.map((r) => ({ ruleId: r.ruleId, tags: [...r.tags], helpUrl: r.helpUrl })),
      version,
    ),
  );
  // A failed read is tried again by the next caller rather than remembered.
  loaded.catch(() => (loaded = undefined));
  return loaded;
}

function axeRuleList(): Promise<AxeRules> {
  read ??= readAxeRules();
  read.catch(() => (read = undefined));
  return read;
}

/** What axe-core says of one rule (help, description, tags), to explain it; undefined for no such rule. */
export async function axeRuleMeta(ruleId: string): Promise<AxeRuleMeta | undefined> {
  return (await axeRuleList()).rules.find((r) => r.ruleId === ruleId);
}

/**
 * WCAG criteria of an axe rule id, from the same rule list. pa11y's axe runner drops the tags, so its
 * issues get their criteria here.
 */
export async function axeRuleCriteria(): Promise<(ruleId: string) => string[]> {
  const coverage = await axeRuleCoverage();
  return (ruleId) => [...(coverage.byRule.get(ruleId) ?? [])];
}
