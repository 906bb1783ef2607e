import fs from 'node:fs';
import path from 'node:path';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { StatementSchema } from '../api/schemas/statement/statement.js';

/**
 * Writes `docs/statement.schema.json`: the JSON Schema (2020-12) of a statement's JSON, generated from the
 * zod schema that the API answers with and the OpenAPI document publishes, descriptions included. Run after
 * changing the statement (`npm run docs:generate` runs it); `test/domain/statement/json-schema.test.ts` fails while
 * the committed file says something else.
 */
export const SCHEMA_PATH = path.join(import.meta.dirname, '..', 'docs', 'statement.schema.json');

const ROOT = 'AccessibilityStatement';

export function statementJsonSchema(): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register(ROOT, StatementSchema);
  const { components } = new OpenApiGeneratorV31(registry.definitions).generateComponents();
  // OpenAPI 3.1 schemas are JSON Schema 2020-12: only the references move from the components to $defs.
  const text = JSON.stringify(components?.schemas ?? {}).replaceAll('"#/components/schemas/', '"#/$defs/');
  const { [ROOT]: root, ...defs } = JSON.parse(text) as Record<string, Record<string, unknown>>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'a11y-gate accessibility statement',
    ...root,
    $defs: defs,
  };
}

export function statementJsonSchemaText(): string {
  return `${JSON.stringify(statementJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] === import.meta.filename) {
  fs.writeFileSync(SCHEMA_PATH, statementJsonSchemaText());
  console.log(`wrote ${SCHEMA_PATH}`);
}
