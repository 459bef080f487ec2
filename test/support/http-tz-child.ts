/**
 * Run in a child process with some TZ: prints, as JSON, the envelope timestamps the app writes
 * at the instant given as argv[2] (ms), plus the host's own local rendering of that instant.
 */
import { createApp } from '../../src/http/app.js';
import { nptTimestamp } from '../../src/http/timestamp.js';
import type { PlaceIndex } from '../../src/index.js';

const at = Number(process.argv[2]);
const app = createApp({ index: {} as PlaceIndex, now: () => at, nearby: () => [], log: () => {}, tokens: [] });
const res = await app.request('/api/v1/no-such-route');
const body = (await res.json()) as { timestamp: string };
process.stdout.write(JSON.stringify({ app: body.timestamp, direct: nptTimestamp(at), local: new Date(at).toString() }));
