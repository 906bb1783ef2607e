import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS; under ESM its default export is nested.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

interface OpenApiDoc {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/**
 * Checks a response against the service's own OpenAPI document: the path and method must be
 * documented, the status must be listed, and a JSON body must match its schema. A test that
 * receives an undocumented answer fails.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly templates: Array<{ template: string; regex: RegExp }>;

  constructor(private readonly doc: OpenApiDoc) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'openapi');
    this.templates = Object.keys(doc.paths)
      .map((template) => ({
        template,
        regex: new RegExp(
          '^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+') + '$',
        ),
      }))
      // Literal paths win over templated ones (/keys/me before /keys/{id}).
      .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  check(method: string, path: string, status: number, contentType: string | null, body: unknown): void {
    const pathname = path.split('?')[0];
    const match = this.templates.find((t) => t.regex.test(pathname));
    const where = `${method.toUpperCase()} ${pathname} → ${status}`;
    if (!match) {
      // Unknown paths may only answer the generic 404/405 problem.
      if (status === 404 || status === 405) return this.checkProblem(where, contentType, body);
      throw new Error(`Contract: ${where}: path is not in the OpenAPI document`);
    }
    const operation = this.doc.paths[match.template][method.toLowerCase()];
    if (!operation) {
      if (status === 405) return this.checkProblem(where, contentType, body);
      throw new Error(`Contract: ${where}: method is not documented for ${match.template}`);
    }
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`Contract: ${where}: status is not documented`);
    const type = (contentType ?? '').split(';')[0].trim();
    if (!response.content) {
      if (body !== undefined && body !== '' && body !== null) {
        throw new Error(`Contract: ${where}: documented without a body, but one was sent`);
      }
      return;
    }
    if (!response.content[type]) {
      throw new Error(`Contract: ${where}: content type ${type || '(none)'} is not documented`);
    }
    if (!type.includes('json')) return;
    const pointer = `openapi#/paths/${escape(match.template)}/${method.toLowerCase()}/responses/${status}/content/${escape(type)}/schema`;
    const validate = this.ajv.getSchema(pointer);
    if (!validate) throw new Error(`Contract: ${where}: no schema at ${pointer}`);
    if (!validate(body)) {
      throw new Error(
        `Contract: ${where}: body does not match the schema: ${this.ajv.errorsText(validate.errors)}\n` +
          JSON.stringify(body).slice(0, 2000),
      );
    }
  }

  private checkProblem(where: string, contentType: string | null, body: unknown): void {
    if (!String(contentType).startsWith('application/problem+json')) {
      throw new Error(`Contract: ${where}: error answered without problem+json`);
    }
    const validate = this.ajv.getSchema('openapi#/components/schemas/Problem');
    if (validate && !validate(body))
      throw new Error(`Contract: ${where}: ${this.ajv.errorsText(validate.errors)}`);
  }
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
