import type { Api } from '../api.js';

/**
 * `GET /health`: for load balancers and orchestrators. No key, no data, no quota: a 200 envelope
 * means this instance is up and serving its index.
 */
export function healthRoutes(api: Api): void {
  api.open('/health', (c) => api.reply(c, 200, undefined, []));
}
