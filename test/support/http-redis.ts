/**
 * A throw-away `redis-server` for the Redis quota tests: a child process on a free loopback port,
 * without persistence, stopped after the suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** A running test Redis. */
export interface TestRedis {
  url: string;
  port: number;
  /** The server's process id (to stop it with SIGSTOP, say). */
  pid: number;
  /** A client for the test's own checks (e.g. FLUSHALL between cases). */
  client: Redis;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function waitReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${seen}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (install the Debian package redis-server): ${err.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${seen}`));
    });
  });
}

/** Starts `redis-server` on a free port (retrying if another process takes the port first). */
export async function startRedis(): Promise<TestRedis> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await waitReady(child);
    } catch (err) {
      lastError = err;
      child.kill('SIGKILL');
      continue;
    }
    // Should the suite die without its afterAll, the server still goes with this process.
    const orphan = () => child.kill('SIGKILL');
    process.once('exit', orphan);
    const url = `redis://127.0.0.1:${port}`;
    const client = new Redis(url);
    return {
      url,
      port,
      pid: child.pid!,
      client,
      async stop() {
        process.off('exit', orphan);
        client.disconnect();
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      },
    };
  }
  throw lastError;
}
