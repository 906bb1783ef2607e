import jsonld, { type Options } from 'jsonld';
import type { RemoteDocument } from 'jsonld/jsonld-spec.js';
import { domainErrors } from '../../domain/errors.js';
import { nextTurn } from '../../domain/turns.js';
import { EARL_CONTEXT } from '../../domain/vpat/assessments/earl.js';
import { SHIPPED_CONTEXTS } from '../../domain/vpat/assessments/earl-contexts.data.js';
import type { ExpandedNode } from '../../domain/vpat/assessments/json-ld-terms.js';

/**
 * An imported file read as JSON-LD: expanded by jsonld (digitalbazaar) so that what it says is read by
 * meaning (full IRIs), whatever its context, framing or key order. Nothing is loaded from the network: a
 * context named by address is one shipped with the service or the file is refused (422), and terms the
 * file leaves undefined are read with the WCAG-EM Report Tool's (the context it writes into its files).
 * A large file is expanded a slice at a time, with a turn between slices, so other requests are answered
 * meanwhile.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses every address but the shipped contexts: an import never reaches the network. */
class UnknownContext extends Error {
  constructor(readonly url: string) {
    super(`context not shipped: ${url}`);
  }
}

// jsonld calls the loader with the address alone; the shipped document is answered from memory.
// eslint-disable-next-line @typescript-eslint/require-await
async function documentLoader(url: string): Promise<RemoteDocument> {
  const document = SHIPPED_CONTEXTS.get(url);
  if (!document) throw new UnknownContext(url);
  return { contextUrl: undefined, documentUrl: url, document: document as RemoteDocument['document'] };
}

/**
 * How every slice is expanded: the shipped contexts only, and the Report Tool's terms under the file's own
 * (its types declare term definitions narrower than JSON-LD allows, hence the conversion).
 */
const EXPAND = { documentLoader, expandContext: { '@context': EARL_CONTEXT } } as unknown as Options.Expand;

/** The cause jsonld wraps an error in, followed down to ours (or the last one). */
function causeOf(err: unknown): unknown {
  let e: unknown = err;
  for (let i = 0; i < 5 && isObject(e); i++) {
    const details = (e as { details?: { cause?: unknown } }).details;
    if (e instanceof UnknownContext || !details?.cause) break;
    e = details.cause;
  }
  return e;
}

function refusal(err: unknown): Error {
  const cause = causeOf(err);
  if (cause instanceof UnknownContext) {
    return domainErrors.invalid(
      [
        {
          pointer: '#/@context',
          detail:
            `names the remote context "${cause.url.slice(0, 500)}", which this service does not load: ` +
            'an import reads no address from the network (put the context in the file itself)',
        },
      ],
      'The file names a JSON-LD context this service does not load.',
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  return domainErrors.invalid(
    [{ pointer: '#', detail: `is not valid JSON-LD: ${message.slice(0, 300)}` }],
    'The file is well-formed JSON but not valid JSON-LD.',
  );
}

async function expand(input: object): Promise<ExpandedNode[]> {
  try {
    return await jsonld.expand(input, EXPAND);
  } catch (err) {
    throw refusal(err);
  }
}

/** Values of a JSON value counted as the limits count them (each object, array, element or member). */
function valueCount(v: unknown, stop: number): number {
  let n = 0;
  const stack = [v];
  for (let x = stack.pop(); x !== undefined && n <= stop; x = stack.pop()) {
    n++;
    if (Array.isArray(x)) stack.push(...(x as unknown[]));
    else if (isObject(x)) stack.push(...Object.values(x));
  }
  return n;
}

/** Values expanded between two turns. */
const SLICE_VALUES = 4_000;

/** The items of a large array in runs of about SLICE_VALUES values each. */
function* runs(items: unknown[]): Generator<unknown[]> {
  let run: unknown[] = [];
  let size = 0;
  for (const item of items) {
    run.push(item);
    size += valueCount(item, SLICE_VALUES);
    if (size >= SLICE_VALUES) {
      yield run;
      run = [];
      size = 0;
    }
  }
  if (run.length) yield run;
}

const SLICE = 'urn:a11y-gate:slice:';

/** The node objects of an expanded tree, depth first, without recursion. */
function* nodesOf(tree: unknown): Generator<Json> {
  const stack = [tree];
  for (let x = stack.pop(); x !== undefined; x = stack.pop()) {
    if (Array.isArray(x)) stack.push(...(x as unknown[]));
    else if (isObject(x)) {
      yield x;
      stack.push(...Object.values(x));
    }
  }
}

/** What a run's own node holds: its one property's values, or its one reverse property's. */
function runOf(wrapper: ExpandedNode | undefined): unknown[] {
  if (!wrapper) return [];
  const [key, value] = Object.entries(wrapper).find(([k]) => k !== '@id') ?? [];
  const values = key === '@reverse' && isObject(value) ? Object.values(value)[0] : value;
  return Array.isArray(values) ? (values as unknown[]) : [];
}

/**
 * One node of the file (its root, or a node of its top-level `@graph`) expanded with its large arrays
 * apart: each is replaced by a marker node, the rest expanded, then the array expanded a run at a time in
 * the same contexts and put where the marker was.
 */
async function expandNode(node: Json, contexts: unknown[]): Promise<ExpandedNode[]> {
  const shell: Json = { ...node };
  const held = new Map<string, { key: string; items: unknown[] }>();
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@') || !Array.isArray(value) || valueCount(value, SLICE_VALUES) < SLICE_VALUES)
      continue;
    const id = `${SLICE}${held.size}`;
    held.set(id, { key, items: value as unknown[] });
    shell[key] = [{ '@id': id }];
  }
  const context = [...contexts, ...(node['@context'] === undefined ? [] : [node['@context']])];
  delete shell['@context'];
  const expanded = await expand(context.length ? { '@context': context, ...shell } : shell);
  if (held.size === 0) return expanded;
  // Where each marker landed, found in the shell before any run is put in (the runs are not walked).
  const places: Array<{ values: unknown[]; marker: Json }> = [];
  for (const parent of nodesOf(expanded)) {
    for (const values of Object.values(parent)) {
      if (!Array.isArray(values)) continue;
      for (const v of values)
        if (isObject(v) && held.has(String(v['@id']))) places.push({ values, marker: v });
    }
  }
  for (const { values, marker } of places) {
    const { key, items } = held.get(String(marker['@id']))!;
    const out: unknown[] = [];
    for (const run of runs(items)) {
      await nextTurn();
      // A node of the run's own: its one property (or reverse property) holds the run, expanded.
      const [wrapper] = await expand({ '@context': context, '@id': `${SLICE}run`, [key]: run });
      out.push(...runOf(wrapper));
    }
    values.splice(values.indexOf(marker), 1, ...out);
  }
  return expanded;
}

/** The file as expanded JSON-LD: its nodes (a top-level `@graph` a run of nodes at a time). */
export async function expandEvaluation(doc: Json): Promise<ExpandedNode[]> {
  const graph = doc['@graph'];
  if (!Array.isArray(graph)) return expandNode(doc, []);
  const { '@graph': _graph, ...rest } = doc;
  const contexts = doc['@context'] === undefined ? [] : [doc['@context']];
  // The root's own statements (a named graph's), then the graph's nodes in the root's context: small
  // ones a run at a time, a large one (an evaluation) with its own large arrays apart.
  const out = Object.keys(rest).some((k) => k !== '@context') ? await expandNode(rest, []) : [];
  let run: unknown[] = [];
  const flush = async () => {
    if (run.length) out.push(...(await expand({ '@context': contexts, '@graph': run })));
    run = [];
    await nextTurn();
  };
  let size = 0;
  for (const item of graph as unknown[]) {
    const n = valueCount(item, SLICE_VALUES);
    if (n >= SLICE_VALUES && isObject(item)) {
      await flush();
      out.push(...(await expandNode(item, contexts)));
      continue;
    }
    run.push(item);
    size += n;
    if (size >= SLICE_VALUES) {
      await flush();
      size = 0;
    }
  }
  await flush();
  return out;
}
