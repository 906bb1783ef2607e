/**
 * What `/api/v1` promises, checked: the generated OpenAPI document against the committed snapshot of it.
 * Anything the snapshot has must still be there, no narrower: paths, methods, parameters, status codes,
 * fields, enum values and event types. Additions (new paths, optional fields, enum values) pass.
 */

type Json = Record<string, unknown>;

export interface OpenApiLike {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
  webhooks?: Record<string, unknown>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

const obj = (v: unknown): Json => (v && typeof v === 'object' ? (v as Json) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Which way data flows: into the service (a request: it must accept no less) or out (a response). */
type Direction = 'request' | 'response';

class Comparison {
  readonly breaks: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly before: OpenApiLike,
    private readonly after: OpenApiLike,
  ) {}

  private resolve(doc: OpenApiLike, schema: unknown): Json {
    let s = obj(schema);
    for (let hops = 0; typeof s.$ref === 'string' && hops < 20; hops++) {
      const name = s.$ref.replace('#/components/schemas/', '');
      s = obj(doc.components?.schemas?.[name]);
    }
    return s;
  }

  schema(where: string, oldRaw: unknown, newRaw: unknown, direction: Direction): void {
    const key = `${direction}|${JSON.stringify(oldRaw)}|${JSON.stringify(newRaw)}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const o = this.resolve(this.before, oldRaw);
    const n = this.resolve(this.after, newRaw);
    if (Array.isArray(o.enum) && Array.isArray(n.enum)) {
      for (const value of o.enum) {
        if (!n.enum.includes(value))
          this.breaks.push(`${where}: enum value ${JSON.stringify(value)} removed`);
      }
    }
    if (
      o.const !== undefined &&
      n.const === undefined &&
      Array.isArray(n.enum) === false &&
      n.type === undefined
    ) {
      this.breaks.push(`${where}: constant ${JSON.stringify(o.const)} removed`);
    }
    const types = (s: Json) => new Set(list(s.type).length ? list(s.type) : s.type ? [s.type] : []);
    const ot = types(o);
    const nt = types(n);
    if (ot.size && nt.size) {
      for (const t of ot) if (!nt.has(t)) this.breaks.push(`${where}: type ${String(t)} no longer allowed`);
    }
    this.properties(where, o, n, direction);
    if (o.items || n.items) this.schema(`${where}[]`, o.items, n.items, direction);
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
      list(o[k]).forEach((variant, i) => {
        const match = list(n[k])[i];
        if (match === undefined) this.breaks.push(`${where}: ${k} variant ${i} removed`);
        else this.schema(`${where}(${k}#${i})`, variant, match, direction);
      });
    }
    if (direction === 'request') this.bounds(where, o, n);
  }

  private properties(where: string, o: Json, n: Json, direction: Direction): void {
    const op = obj(o.properties);
    const np = obj(n.properties);
    for (const [name, schema] of Object.entries(op)) {
      if (!(name in np)) {
        this.breaks.push(`${where}.${name}: field removed`);
        continue;
      }
      this.schema(`${where}.${name}`, schema, np[name], direction);
    }
    const oldRequired = new Set(list(o.required));
    const newRequired = new Set(list(n.required));
    if (direction === 'request') {
      for (const r of newRequired) {
        if (!oldRequired.has(r)) this.breaks.push(`${where}.${String(r)}: newly required in a request`);
      }
    } else {
      for (const r of oldRequired) {
        if (!newRequired.has(r) && String(r) in np)
          this.breaks.push(`${where}.${String(r)}: no longer always answered`);
      }
    }
  }

  /** A request that was accepted must still be: limits may widen, never tighten. */
  private bounds(where: string, o: Json, n: Json): void {
    const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
    for (const k of ['maxLength', 'maximum', 'maxItems', 'exclusiveMaximum']) {
      const a = num(o[k]);
      const b = num(n[k]);
      if (b !== undefined && (a === undefined || b < a)) this.breaks.push(`${where}: ${k} narrowed to ${b}`);
    }
    for (const k of ['minLength', 'minimum', 'minItems', 'exclusiveMinimum']) {
      const a = num(o[k]);
      const b = num(n[k]);
      if (b !== undefined && (a === undefined || b > a)) this.breaks.push(`${where}: ${k} narrowed to ${b}`);
    }
  }

  /** `sent`: the request body is what this service sends (a webhook's payload), read like a response. */
  operation(where: string, o: Json, n: Json, sent = false): void {
    const params = (op: Json) =>
      new Map(list(op.parameters).map((p) => [`${String(obj(p).in)}:${String(obj(p).name)}`, obj(p)]));
    const op = params(o);
    const np = params(n);
    for (const [name, p] of op) {
      const q = np.get(name);
      if (!q) this.breaks.push(`${where} parameter ${name}: removed`);
      else this.schema(`${where} parameter ${name}`, p.schema, q.schema, 'request');
    }
    for (const [name, q] of np) {
      if (!op.has(name) && q.required === true)
        this.breaks.push(`${where} parameter ${name}: newly required`);
    }
    const body = (op: Json) => obj(obj(obj(op.requestBody).content)['application/json']).schema;
    if (body(o) !== undefined) {
      if (body(n) === undefined) this.breaks.push(`${where} request body: removed`);
      else this.schema(`${where} body`, body(o), body(n), sent ? 'response' : 'request');
    }
    const oldResponses = obj(o.responses);
    const newResponses = obj(n.responses);
    for (const [status, response] of Object.entries(oldResponses)) {
      if (!(status in newResponses)) {
        this.breaks.push(`${where} ${status}: status code removed`);
        continue;
      }
      for (const [type, media] of Object.entries(obj(obj(response).content))) {
        const other = obj(obj(obj(newResponses[status]).content)[type]);
        if (!('schema' in other)) this.breaks.push(`${where} ${status} ${type}: media type removed`);
        else this.schema(`${where} ${status}`, obj(media).schema, other.schema, 'response');
      }
    }
  }

  run(): string[] {
    for (const [path, item] of Object.entries(this.before.paths ?? {})) {
      const next = this.after.paths?.[path];
      if (!next) {
        this.breaks.push(`${path}: path removed`);
        continue;
      }
      for (const method of METHODS) {
        if (!(method in item)) continue;
        if (!(method in next)) this.breaks.push(`${method.toUpperCase()} ${path}: method removed`);
        else this.operation(`${method.toUpperCase()} ${path}`, obj(item[method]), obj(next[method]));
      }
    }
    for (const [event, hook] of Object.entries(this.before.webhooks ?? {})) {
      const next = this.after.webhooks?.[event];
      if (!next) this.breaks.push(`webhook ${event}: event removed`);
      else this.operation(`webhook ${event}`, obj(obj(hook).post), obj(obj(next).post), true);
    }
    return this.breaks;
  }
}

/** Every way `after` removes or narrows something `before` promised; empty when it only adds. */
export function breakingChanges(before: OpenApiLike, after: OpenApiLike): string[] {
  return new Comparison(before, after).run();
}
