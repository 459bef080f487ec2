/**
 * Validates response bodies against the schemas of the API's own OpenAPI document, with ajv's
 * JSON Schema 2020-12 validator (the dialect of OpenAPI 3.1).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

type Doc = Record<string, any>;

/** Checks bodies against the response schemas of one OpenAPI document. */
export class ResponseValidator {
  private ajv = new Ajv2020({ strict: false, allErrors: true });
  private cache = new Map<string, ValidateFunction>();
  private doc: Doc;

  constructor(doc: Doc) {
    this.doc = doc;
    this.ajv.addSchema(doc, 'api');
  }

  /**
   * The errors of `body` as the response of `method path` with `status` and media `type`
   * (empty when valid). Throws when the document does not describe that status for that route.
   */
  errors(path: string, method: string, status: number, body: unknown, type = 'application/json'): string[] {
    const id = `${path} ${method} ${status} ${type}`;
    let validate = this.cache.get(id);
    if (!validate) {
      const op = this.doc.paths?.[path]?.[method];
      if (!op) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
      let pointer = `#/paths/${esc(path)}/${method}/responses/${status}`;
      let response = op.responses?.[status];
      if (!response) throw new Error(`the document has no ${status} for ${method.toUpperCase()} ${path}`);
      if (response.$ref) {
        pointer = response.$ref;
        response = this.resolve(response.$ref);
      }
      if (!response.content?.[type]?.schema) throw new Error(`${id}: no ${type} schema`);
      validate = this.ajv.compile({ $ref: `api${pointer}/content/${esc(type)}/schema` });
      this.cache.set(id, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  }

  /** The errors of `value` against `#/components/schemas/<name>`. */
  schemaErrors(name: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`api#/components/schemas/${name}`);
    if (!validate) throw new Error(`no schema ${name}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  }

  private resolve(ref: string): any {
    return ref
      .slice(2)
      .split('/')
      .map(unesc)
      .reduce((o: any, k) => o[k], this.doc);
  }
}

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unesc = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
