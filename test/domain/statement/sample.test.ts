import fs from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { DOC_PATH, renderSample, sampleStatement, withSample } from '../../../scripts/statement-sample.js';
import { SCHEMA_PATH, statementJsonSchema } from '../../../scripts/statement-schema.js';

describe('the documented statement', () => {
  const schema = JSON.parse(fs.readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;

  test('docs/statement.schema.json is the schema the API answers with (run `npx tsx scripts/statement-schema.ts`)', () => {
    expect(schema).toEqual(statementJsonSchema());
  });

  test('a statement validates against it, and a statement it does not describe does not', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const s = sampleStatement();
    expect(validate(s)).toBe(true);
    expect(validate({ ...s, compliance: { ...s.compliance, status: 'mostly' } })).toBe(false);
    expect(validate({ ...s, published: { by: 'Grace Officer' } })).toBe(false);
  });

  test('docs/statement.md shows the sample as the code renders it today (run `npx tsx scripts/statement-sample.ts`)', () => {
    const doc = fs.readFileSync(DOC_PATH, 'utf8');
    expect(doc).toContain(renderSample());
    expect(withSample(doc)).toBe(doc);
  });
});
