/**
 * ioredis defines a class extending String, which makes string code such as charCodeAt several
 * times slower in the whole process: the Node entry loads it only when a Redis store is made.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

const SCRIPT = `
import { createRequire } from 'node:module';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/ioredis/'));
const node = await import('./src/http/node.ts');
const before = loaded();
await node.RedisQuotaStore.connect('redis://127.0.0.1:1').catch(() => {});
console.log(JSON.stringify({ before, after: loaded() }));
`;

describe('the Node entry loads the Redis client only for a Redis store', () => {
  it('not on import; once RedisQuotaStore.connect() is called', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: root });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ before: false, after: true });
  });
});
