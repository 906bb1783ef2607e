import fc from 'fast-check';

/** Just enough of JSON Schema (as zod-to-openapi emits it) to generate values from. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  example?: unknown;
  nullable?: boolean;
  default?: unknown;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{
    name: string;
    in: 'path' | 'query' | 'header';
    required?: boolean;
    schema?: JsonSchema;
  }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, unknown>;
}

// A scan body nests body → pages[] → page → issues[] → issue → source, each a $ref or an array.
const MAX_DEPTH = 9;

/**
 * Property name → values to use for it (mixed with generated ones), so bodies can name things that
 * exist (a seeded siteId, sha or scan id) and get past the lookups into the handlers.
 */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

/**
 * Values that mostly satisfy `schema` (so requests get past validation and reach the handlers),
 * from fast-check, so a fixed seed replays the same run. A schema's `example` is used now and then.
 */
export function fromSchema(
  doc: OpenApiDoc,
  schema: JsonSchema | undefined,
  depth = 0,
  overrides: Overrides = {},
): fc.Arbitrary<unknown> {
  if (!schema || depth > MAX_DEPTH) return fc.constant(null);
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop()!;
    return fromSchema(doc, doc.components?.schemas?.[name], depth + 1, overrides);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length)
    return fc.oneof(...alternatives.map((s) => fromSchema(doc, s, depth + 1, overrides)));
  if (schema.allOf?.length) return fromSchema(doc, merge(schema.allOf), depth + 1, overrides);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nonNull = types.filter((t) => t !== 'null');
  let base = byType(doc, schema, nonNull[0] ?? (schema.properties ? 'object' : undefined), depth, overrides);
  if (schema.example !== undefined && nonNull[0] !== 'object' && nonNull[0] !== 'array') {
    base = fc.oneof({ weight: 2, arbitrary: base }, { weight: 1, arbitrary: fc.constant(schema.example) });
  }
  return types.includes('null') || schema.nullable
    ? fc.oneof({ weight: 5, arbitrary: base }, fc.constant(null))
    : base;
}

function merge(parts: JsonSchema[]): JsonSchema {
  return parts.reduce<JsonSchema>(
    (acc, p) => ({
      ...acc,
      ...p,
      properties: { ...acc.properties, ...p.properties },
      required: [...(acc.required ?? []), ...(p.required ?? [])],
    }),
    {},
  );
}

function byType(
  doc: OpenApiDoc,
  schema: JsonSchema,
  type: string | undefined,
  depth: number,
  overrides: Overrides,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? 4, Math.max(4, minLength));
      // Lists of enum values (event types, scopes) are sets: no repeats.
      const choices = enumValues(doc, schema.items);
      if (choices)
        return fc.subarray(choices, { minLength: Math.min(Math.max(1, minLength), choices.length) });
      return fc.array(fromSchema(doc, schema.items, depth + 1, overrides), { minLength, maxLength });
    }
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries(props)) {
        let generated = fromSchema(doc, s, depth + 1, overrides);
        // Fields named *url are URLs whatever their schema says (most are validated as such).
        if (/url$/i.test(name) && !overrides[name] && resolve(doc, s)?.type !== 'object') {
          generated = fc.oneof({ weight: 9, arbitrary: fc.webUrl() }, { weight: 1, arbitrary: generated });
        }
        record[name] = overrides[name]
          ? fc.oneof({ weight: 3, arbitrary: overrides[name] }, { weight: 1, arbitrary: generated })
          : generated;
      }
      if (Object.keys(record).length === 0) {
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
      }
      return fc.record(record, { requiredKeys: Object.keys(record).filter((k) => required.has(k)) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The allowed values when a schema is an enum or a union of enums, else undefined. */
function enumValues(doc: OpenApiDoc, schema: JsonSchema | undefined): unknown[] | undefined {
  const s = resolve(doc, schema);
  if (s?.enum) return s.enum;
  const parts = s?.anyOf ?? s?.oneOf;
  if (!parts?.length) return undefined;
  const all = parts.map((p) => enumValues(doc, p));
  return all.every(Boolean) ? all.flat() : undefined;
}

function resolve(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  return resolve(doc, doc.components?.schemas?.[schema.$ref.split('/').pop()!]);
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'date-time':
      // Mostly within the coming year (expiry dates must be in the future), sometimes in the past.
      return fc
        .oneof(
          { weight: 4, arbitrary: fc.integer({ min: 3_600_000, max: 360 * 86_400_000 }) },
          { weight: 1, arbitrary: fc.integer({ min: -3 * 365 * 86_400_000, max: 3 * 365 * 86_400_000 }) },
        )
        .map((offset) => new Date(Date.now() + offset).toISOString());
    case 'uri':
    case 'url':
      return fc.webUrl();
    case 'email':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom('a11y@example.com', 'compliance.team@example.org') },
        { weight: 1, arbitrary: fc.emailAddress() },
      );
  }
  if (schema.pattern) {
    const max = schema.maxLength ?? 100;
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length <= max && s.length >= (schema.minLength ?? 0));
  }
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  // Empty strings come from the mutations; generated ones are mostly non-empty.
  return fc.string({ minLength: Math.min(maxLength, schema.minLength ?? 1), maxLength });
}

/** Replaces one random subtree with something hostile (wrong type, huge, unicode, prototype keys). */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  const hostile = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ unit: 'grapheme', maxLength: 50 }),
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      '../../etc/passwd',
      "' or 1=1 --",
      '<script>alert(1)</script>',
      '%00',
      '\ud800',
      'a'.repeat(5000),
      -1,
      0,
      2 ** 53,
      -(2 ** 63),
      1e308,
      true,
      [],
      {},
      { __proto__: { polluted: true } },
      { constructor: { prototype: { polluted: true } } },
    ),
  );
  const paths = pathsOf(value);
  return fc
    .tuple(fc.constantFrom(...paths), hostile, fc.boolean())
    .map(([path, replacement, drop]) => replaceAt(value, path, replacement, drop));
}

function pathsOf(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (value && typeof value === 'object' && out.length < 200) {
    for (const k of Object.keys(value)) pathsOf((value as Record<string, unknown>)[k], [...prefix, k], out);
  }
  return out;
}

function replaceAt(value: unknown, path: string[], replacement: unknown, drop: boolean): unknown {
  if (path.length === 0) return replacement;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value)
    ? [...(value as unknown[])]
    : { ...(value as Record<string, unknown>) };
  const [head, ...rest] = path;
  if (rest.length === 0 && drop && !Array.isArray(copy)) {
    delete copy[head];
  } else {
    (copy as Record<string, unknown>)[head] = replaceAt(
      (value as Record<string, unknown>)[head],
      rest,
      replacement,
      drop,
    );
  }
  return copy;
}
