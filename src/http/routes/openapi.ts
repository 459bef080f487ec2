import type { PlaceIndex } from '../../index/place-index.js';
import { types } from '../../query/types.js';
import type { Api } from '../api.js';
import { openapiEndpoint } from '../endpoints.js';
import { openApiDocument } from '../openapi.js';

const SUFFIX = openapiEndpoint.path;

/**
 * `GET /openapi.json`: the OpenAPI description. Its `servers` is the path the app is actually
 * reached under (its base path, behind whatever prefix a host app mounted it at), read from the
 * request; each distinct one is serialized once.
 */
export function openapiRoutes(api: Api): void {
  const { maxLimit, maxRadius } = api.limits;
  // per index (a reload brings its own types) and base path
  const documents = new WeakMap<PlaceIndex, Map<string, string>>();
  api.open(openapiEndpoint, (c) => {
    const base = c.req.path.slice(0, -SUFFIX.length);
    const index = api.current();
    let texts = documents.get(index);
    if (!texts) documents.set(index, (texts = new Map()));
    let text = texts.get(base);
    if (text === undefined) {
      // (a stand-in index of a test may have no type trees)
      const known = index.types instanceof Map ? types(index).map((t) => t.type) : [];
      text = JSON.stringify(openApiDocument({ basePath: base, maxLimit, maxRadius, types: known }));
      if (texts.size < 16) texts.set(base, text);
    }
    c.header('Content-Type', 'application/json');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(text, 200);
  });
}
