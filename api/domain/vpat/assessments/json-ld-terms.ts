/**
 * Expanded JSON-LD as the EARL import reads it: the IRIs that carry each meaning (the terms the WCAG-EM
 * Report Tool's contexts have mapped over its versions, EARL's, Dublin Core's), and an index of a
 * document's nodes by id, so a reference (`_:evaluator`) reads as the node it names, wherever the file
 * put it, and a reverse property (`assertions` of a subject) reads as the forward one. Pure.
 */

/** A node object of expanded JSON-LD: properties by full IRI, each an array of values. */
export type ExpandedNode = Record<string, unknown>;

const EARL = 'http://www.w3.org/ns/earl#';
const WCAGEM = 'http://www.w3.org/TR/WCAG-EM/#';
const DCT = 'http://purl.org/dc/terms/';
/** The namespace of the Report Tool's first data format. */
const REPORTER = 'https://github.com/w3c/wcag-em-report-tool/blob/master/dataformat.md#';

/** The IRIs of each meaning the import reads. */
export const T = {
  scope: [`${WCAGEM}step1`],
  target: [`${WCAGEM}step1b`],
  select: [`${WCAGEM}step3`],
  structured: [`${WCAGEM}step3a`],
  random: [`${WCAGEM}step3b`],
  audit: [`${WCAGEM}step4`],
  findings: [`${WCAGEM}step5`],
  evaluator: [`${WCAGEM}evaluator`],
  creator: [`${DCT}creator`, `${WCAGEM}creator`],
  test: [`${EARL}test`, `${WCAGEM}testRequirement`, `${WCAGEM}testcase`],
  result: [`${EARL}result`],
  outcome: [`${EARL}outcome`],
  subject: [`${EARL}subject`],
  assertedBy: [`${EARL}assertedBy`],
  hasPart: [`${DCT}hasPart`],
  isPartOf: [`${DCT}isPartOf`, `${EARL}isPartOf`],
  // The ACT rules' EARL context maps `description` to DOAP's.
  description: [
    `${DCT}description`,
    `${WCAGEM}description`,
    `${REPORTER}description`,
    'http://usefulinc.com/ns/doap#description',
  ],
  title: [`${DCT}title`],
  source: [`${DCT}source`],
  handle: [`${WCAGEM}handle`, `${REPORTER}handle`],
  name: [
    'http://xmlns.com/foaf/0.1/name',
    'http://schema.org/name',
    'https://schema.org/name',
    'http://usefulinc.com/ns/doap#name',
    `${DCT}title`,
  ],
  assertion: `${EARL}Assertion`,
} as const;

type Terms = readonly string[];
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNode = (v: unknown): v is ExpandedNode => isObject(v) && !('@value' in v) && !('@list' in v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const NONE: readonly unknown[] = [];

/** A node that says nothing but its id (counted without listing its keys: read once per value). */
function isReference(v: Json): boolean {
  let keys = 0;
  for (const _key in v) if (++keys > 1) return false;
  return keys === 1;
}

export interface NodeIndex {
  /** The values of a node's properties (any of `terms`), its other occurrences and reverse links included. */
  values(node: ExpandedNode, terms: Terms): unknown[];
  first(node: ExpandedNode, terms: Terms): unknown;
  /** A value as the node it is or names (a reference, or text that is a node's id). */
  node(value: unknown): ExpandedNode | undefined;
  /** A value as text: a literal, an IRI, or a node's id. */
  text(value: unknown): string | undefined;
  idOf(node: ExpandedNode): string | undefined;
  /** The nodes a node's properties hold (a sample's pages under one property). */
  nestedNodes(node: ExpandedNode): ExpandedNode[];
  /** The first node that is a WCAG-EM evaluation (has an audit, a sample or a scope). */
  evaluation(): ExpandedNode | undefined;
  /** The EARL assertions that are no other assertion's part, in document order. */
  assertions(): ExpandedNode[];
}

/** Every node of the document, in document order, without recursion; reverse links recorded. */
function walk(doc: readonly ExpandedNode[]) {
  const order: ExpandedNode[] = [];
  const byId = new Map<string, ExpandedNode[]>();
  const reverse = new Map<ExpandedNode, Map<string, ExpandedNode[]>>();
  const stack: unknown[] = [...doc].reverse();
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
      continue;
    }
    if (!isObject(x)) continue;
    if ('@list' in x) stack.push(x['@list']);
    if (!isNode(x)) continue;
    order.push(x);
    const id = typeof x['@id'] === 'string' ? x['@id'] : undefined;
    if (id) {
      const same = byId.get(id);
      if (same) same.push(x);
      else byId.set(id, [x]);
    }
    const children: unknown[] = [];
    for (const [key, value] of Object.entries(x)) {
      if (key === '@reverse' && isObject(value)) {
        // `x` is the object of each reverse property: the nodes listed there point at `x`.
        for (const [property, sources] of Object.entries(value)) {
          for (const s of asArray(sources).filter(isNode)) {
            const links = reverse.get(s) ?? new Map<string, ExpandedNode[]>();
            const to = links.get(property);
            if (to) to.push(x);
            else links.set(property, [x]);
            reverse.set(s, links);
            children.push(s);
          }
        }
      } else if (!key.startsWith('@')) children.push(value);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return { order, byId, reverse };
}

/**
 * A node named in many places (the evaluator of every assertion), merged once rather than at each read:
 * its properties and reverse links from every occurrence, and its one occurrence that says more than its id.
 */
function sharedNodes(
  byId: ReadonlyMap<string, ExpandedNode[]>,
  reverse: ReadonlyMap<ExpandedNode, Map<string, ExpandedNode[]>>,
) {
  const merged = new Map<string, Map<string, unknown[]>>();
  const mergedOf = (id: string): Map<string, unknown[]> => {
    const known = merged.get(id);
    if (known) return known;
    const m = new Map<string, unknown[]>();
    const add = (key: string, vs: readonly unknown[]) => {
      const list = m.get(key) ?? [];
      // One at a time: a node may be named by more values than one call takes arguments.
      for (const v of vs) list.push(v);
      m.set(key, list);
    };
    for (const occurrence of byId.get(id) ?? []) {
      for (const [key, value] of Object.entries(occurrence))
        if (!key.startsWith('@')) add(key, asArray(value));
      for (const [key, sources] of reverse.get(occurrence) ?? []) add(key, sources);
    }
    merged.set(id, m);
    return m;
  };
  const full = new Map<string, ExpandedNode | undefined>();
  const fullOf = (id: string): ExpandedNode | undefined => {
    if (!full.has(id))
      full.set(
        id,
        byId.get(id)?.find((o) => Object.keys(o).length > 1),
      );
    return full.get(id);
  };
  return { mergedOf, fullOf };
}

export function nodeIndex(doc: readonly ExpandedNode[]): NodeIndex {
  const { order, byId, reverse } = walk(doc);
  const idOf = (n: ExpandedNode) => (typeof n['@id'] === 'string' ? n['@id'] : undefined);
  const { mergedOf, fullOf } = sharedNodes(byId, reverse);
  // Read once per assertion and term: no list is made unless a node has values under several terms.
  const own = (node: ExpandedNode, t: string): readonly unknown[] => {
    const v = node[t];
    return Array.isArray(v) ? v : v === undefined ? NONE : [v];
  };
  const valuesOf = (node: ExpandedNode, t: string): readonly unknown[] => {
    const id = idOf(node);
    if (id) return mergedOf(id).get(t) ?? NONE;
    const back = reverse.get(node)?.get(t);
    return back ? [...own(node, t), ...back] : own(node, t);
  };
  const values = (node: ExpandedNode, terms: Terms): unknown[] => {
    const out: unknown[] = [];
    for (const t of terms) for (const v of valuesOf(node, t)) out.push(v);
    return out;
  };
  /** The first value of any of `terms`, without gathering the others (a shared node may have thousands). */
  const first = (node: ExpandedNode, terms: Terms): unknown => {
    for (const t of terms) {
      const list = valuesOf(node, t);
      if (list.length) return list[0];
    }
    return undefined;
  };
  const node = (v: unknown): ExpandedNode | undefined => {
    if (typeof v === 'string' || (isObject(v) && typeof v['@value'] === 'string')) {
      const id = typeof v === 'string' ? v : (v['@value'] as string);
      return fullOf(id) ?? byId.get(id)?.[0];
    }
    if (!isNode(v)) return undefined;
    const id = idOf(v);
    // A bare reference reads as the node it names.
    return (id && isReference(v) ? fullOf(id) : undefined) ?? v;
  };
  const text = (v: unknown): string | undefined => {
    if (typeof v === 'string') return v;
    if (!isObject(v)) return undefined;
    const value = v['@value'] ?? v['@id'];
    return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
  };
  const isAssertion = (n: ExpandedNode) =>
    asArray(n['@type']).includes(T.assertion) || first(n, T.result) !== undefined;
  return {
    values,
    first,
    node,
    text,
    idOf,
    nestedNodes: (n) =>
      Object.entries(n)
        .filter(([k]) => !k.startsWith('@'))
        .flatMap(([, v]) => asArray(v).map(node))
        .filter((x): x is ExpandedNode => x !== undefined),
    evaluation: () =>
      order.find((n) => [T.audit, T.select, T.structured, T.scope].some((t) => first(n, t) !== undefined)),
    assertions: () => {
      const parts = new Set(
        order.flatMap((n) => values(n, T.hasPart).map(node)).filter((p) => p !== undefined),
      );
      const seen = new Set<ExpandedNode>();
      return order.filter((n) => {
        if (!isAssertion(n) || parts.has(n) || seen.has(n)) return false;
        seen.add(n);
        return true;
      });
    },
  };
}
