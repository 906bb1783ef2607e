import { OUTCOMES, type ImportedResult, type Outcome } from './assessment.js';
import { criterionFromName } from './criterion-names.js';
import { T, type ExpandedNode, type NodeIndex } from './json-ld-terms.js';

/**
 * What one EARL assertion says, read by meaning from expanded JSON-LD: the criteria its test is about, its
 * outcome, who asserted it, and a page's address; and how several results of a tool's rules on one
 * criterion and page combine. Pure.
 */

export const isWebAddress = (s: string | undefined): s is string => !!s && /^https?:\/\//i.test(s);

/** A page's address: its source, else its description, title or handle (the tools have used each). */
export function addressOf(ix: NodeIndex, page: ExpandedNode): string | undefined {
  for (const terms of [T.source, T.description, T.title, T.handle]) {
    const text = ix.text(ix.first(page, terms));
    if (text) return text;
  }
  return isWebAddress(ix.idOf(page)) ? ix.idOf(page) : undefined;
}

/** An outcome by its last word, in lower case: EARL's values, and its outcome classes (earl:Pass, earl:Fail, …) as some tools write them. */
const OUTCOME_WORDS = new Map<string, Outcome>([
  ...OUTCOMES.map((o) => [o.toLowerCase(), o] as const),
  ['pass', 'passed'],
  ['fail', 'failed'],
  ['cannottell', 'cantTell'],
  ['notapplicable', 'inapplicable'],
  ['nottested', 'untested'],
]);

export function outcomeOf(ix: NodeIndex, a: ExpandedNode): Outcome | undefined {
  const result = ix.node(ix.first(a, T.result));
  const id = (result && ix.text(ix.first(result, T.outcome))) ?? 'untested';
  return OUTCOME_WORDS.get(id.replace(/^.*[#:/]/, '').toLowerCase());
}

/** The criteria an assertion's test is about: the test itself, else the criteria it is part of. */
export function criteriaOf(ix: NodeIndex, a: ExpandedNode, inherited: string[]) {
  const test = ix.first(a, T.test);
  const named = ix.text(test);
  const own = named ? criterionFromName(named) : undefined;
  if (own) return { criteria: [own], whole: true, name: named };
  const node = ix.node(test);
  const parts = node
    ? ix.values(node, T.isPartOf).flatMap((p) => {
        const c = criterionFromName(ix.text(p) ?? '');
        return c ? [c] : [];
      })
    : [];
  if (parts.length) return { criteria: [...new Set(parts)], whole: false, name: named };
  return { criteria: test === undefined ? inherited : [], whole: true, name: named };
}

export function testerOf(ix: NodeIndex, a: ExpandedNode, fallback: string): string {
  const by = ix.first(a, T.assertedBy);
  const node = ix.node(by);
  const name = (node && ix.text(ix.first(node, T.name))) ?? ix.text(by);
  return (name && !name.startsWith('_:') ? name : fallback).slice(0, 200);
}

/** Several results of a tool's rules on one criterion and page: failed if any failed, passed if all passed. */
export function combined(rs: ImportedResult[]): ImportedResult {
  const has = (o: Outcome) => rs.some((r) => r.outcome === o);
  const outcome: Outcome = has('failed')
    ? 'failed'
    : has('cantTell')
      ? 'cantTell'
      : has('passed')
        ? 'passed'
        : has('inapplicable')
          ? 'inapplicable'
          : 'untested';
  const notes = [
    ...new Set(
      rs
        .filter((r) => r.outcome === outcome)
        .map((r) => r.notes)
        .filter(Boolean),
    ),
  ];
  return { ...rs[0], outcome, notes: notes.join(' ').slice(0, 5000) };
}
