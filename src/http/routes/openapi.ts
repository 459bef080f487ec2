import type { Api } from '../api.js';
import { openApiDocument } from '../openapi.js';

const SUFFIX = '/openapi.json';

/**
 * `GET /openapi.json`: the OpenAPI description. Its `servers` is the path the app is actually
 * reached under (its base path, behind whatever prefix a host app mounted it at), read from the
 * request; each distinct one is serialized once.
 */
export function openapiRoutes(api: Api): void {
  const { maxLimit, maxRadius } = api.limits;
  const documents = new Map<string, string>();
  api.open(SUFFIX, (c) => {
    const base = c.req.path.slice(0, -SUFFIX.length);
    let text = documents.get(base);
    if (text === undefined) {
      text = JSON.stringify(openApiDocument({ basePath: base, maxLimit, maxRadius }));
      if (documents.size < 16) documents.set(base, text);
    }
    c.header('Content-Type', 'application/json');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(text, 200);
  });
}
