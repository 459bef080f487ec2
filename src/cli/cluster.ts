/**
 * `serve --workers N`: N server processes on one port with node:cluster (the primary accepts the
 * connections and hands them round-robin to the workers). The primary loads nothing: each worker
 * runs `serve` as a single process would, with the quota in the Redis they share. The primary
 * starts one worker first (so a bad data file or Redis URL is reported once, by it), then the
 * others; replaces a worker that dies; passes SIGHUP on to every worker (each reloads its data)
 * and SIGTERM/SIGINT (each finishes its requests), and exits once they all have.
 *
 * A connection the primary has handed to a worker that dies before taking it (see `rescue`) is
 * handed to another worker, or closed when none is left: never held open by the primary.
 */
import type { ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';

/** What a worker asks the primary for once it can hear the answer. */
export interface HelloMessage {
  np: 'hello';
}

/** What the primary tells a worker before it starts. */
export interface StartMessage {
  np: 'start';
  /** The development key every worker must accept, when no tokens file was given. */
  devKey?: string;
  /** The web app's page key, the same in every worker (none with --no-app). */
  appKey?: string;
}

/** What the primary asks of every worker first when it stops: to stop listening. */
export interface UnlistenMessage {
  np: 'unlisten';
}

/** A worker's answer to `UnlistenMessage`, once it no longer listens. */
export interface UnlistenedMessage {
  np: 'unlistened';
}

/** What a worker tells the primary once it listens: the lines a single process would print. */
export interface ReadyMessage {
  np: 'ready';
  banner: string[];
}

/** Options of `runPrimary`. */
export interface PrimaryOptions {
  workers: number;
  devKey?: string;
  appKey?: string;
  out: (line: string) => void;
  fail: (line: string) => void;
}

/** How often a worker may die within a minute before the primary stops replacing it. */
const MAX_RESTARTS = 5;

/** Longest wait for the workers to stop listening before they are told to stop anyway. */
const UNLISTEN_MS = 1000;

/**
 * Runs the primary: starts the workers, prints the banner, waits for a stop signal, and resolves
 * with the exit code: 0 after a stop, a worker's own code when one fails to start, 1 when
 * workers keep dying.
 */
export async function runPrimary(o: PrimaryOptions): Promise<number> {
  let stopping = false;
  let stopped!: (code: number) => void;
  const done = new Promise<number>((resolve) => (stopped = resolve));
  const live = new Set<Worker>();
  const serving = new Set<Worker>();
  const deaths: number[] = [];

  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.off(s, signals[s]);
    const finish = () => {
      if (code === 0) o.out('nepal-places: stopped');
      stopped(code);
    };
    // First every worker stops listening, and the port with them (node:cluster closes it with
    // the last), then each finishes its requests (SIGTERM). Else the clients a first worker
    // sends away (`Connection: close`) reconnect while another still listens, and the port
    // accepts their connections only to drop them once that one stops too.
    const unlistened = [...serving]
      .filter((w) => w.isConnected())
      .map(
        (w) =>
          new Promise<void>((resolve) => {
            const heard = (m: UnlistenedMessage) => {
              if (m?.np !== 'unlistened') return;
              w.off('message', heard);
              resolve();
            };
            w.on('message', heard);
            w.once('exit', () => resolve());
            w.send({ np: 'unlisten' } satisfies UnlistenMessage, undefined, undefined, () => {});
          }),
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    void Promise.race([Promise.all(unlistened), new Promise((r) => (timer = setTimeout(r, UNLISTEN_MS)))]).then(() => {
      clearTimeout(timer);
      for (const w of live) w.process.kill('SIGTERM');
      if (!live.size) finish();
      else Promise.all([...live].map((w) => new Promise((r) => (w.isDead() ? r(null) : w.once('exit', r))))).then(finish);
    });
  };
  const signals = {
    SIGTERM: () => stop(0),
    SIGINT: () => stop(0),
    SIGHUP: () => {
      o.out(`nepal-places: SIGHUP: ${live.size} workers reload their data`);
      for (const w of live) w.process.kill('SIGHUP');
    },
  };
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(s, signals[s]);

  // One worker, resolved with its banner once it listens; rejected with its exit code if it
  // dies before that. Once running, a death (not asked for) is replaced.
  const start = (): Promise<ReadyMessage> =>
    new Promise((resolve, reject) => {
      const w = cluster.fork();
      live.add(w);
      rescue(w, () => !stopping && [...serving].some((o) => o !== w && o.isConnected()));
      let ready = false;
      // A message sent before the worker listens for it is lost: the worker asks first.
      w.on('message', (m: HelloMessage | ReadyMessage) => {
        if (m?.np === 'hello') w.send({ np: 'start', devKey: o.devKey, appKey: o.appKey } satisfies StartMessage);
        else if (m?.np === 'ready' && !ready) {
          ready = true;
          serving.add(w);
          resolve(m);
        }
      });
      w.once('disconnect', () => serving.delete(w));
      w.once('exit', (code, signal) => {
        live.delete(w);
        serving.delete(w);
        if (!ready) return reject(code ?? 1);
        if (stopping) return;
        const now = Date.now();
        deaths.push(now);
        while (deaths[0]! < now - 60_000) deaths.shift();
        const how = signal ? `signal ${signal}` : `code ${code}`;
        if (deaths.length > MAX_RESTARTS) {
          o.fail(`worker ${w.process.pid} exited (${how}); ${deaths.length} workers died within a minute, stopping`);
          return stop(1);
        }
        o.fail(`worker ${w.process.pid} exited (${how}); starting another`);
        start().then(
          () => o.out(`nepal-places: ${live.size} workers`),
          (c: number) => {
            o.fail(`the replacement worker exited with code ${c} before serving; stopping`);
            stop(1);
          },
        );
      });
    });

  let banner: string[];
  try {
    ({ banner } = await start());
    await Promise.all(Array.from({ length: o.workers - 1 }, start));
  } catch (code) {
    stop(typeof code === 'number' && code !== 0 ? code : 1);
    return done;
  }
  if (stopping) return done;
  for (const line of banner) o.out(line);
  o.out(
    `nepal-places: ${live.size} workers on one port (pids ${[...live].map((w) => w.process.pid).join(', ')}); SIGHUP reloads their data`,
  );
  return done;
}

/** What node:cluster's primary and workers say to each other (not a public API of Node). */
interface ClusterMessage {
  cmd?: string;
  act?: string;
  seq?: number;
  ack?: number;
  accepted?: boolean;
}

/**
 * Keeps the primary from holding a connection for good when a worker dies with it. With
 * round-robin, the primary accepts each connection and sends it to a worker, and closes its own
 * copy only once the worker says it took it; a worker killed before saying so (busy, stopped,
 * the message still in the pipe) never does, and the connection stayed open in the primary,
 * its request unanswered (CLOSE-WAIT once the client gave up). Node offers no hook for this, so
 * the worker's channel is watched: connections sent and not yet acknowledged are noted, and
 * when the channel closes each is answered as node:cluster answers a worker that no longer
 * listens (`accepted: false`: it hands the connection to another worker), or closed when
 * `others()` says no other worker serves. The worker never read from such a connection: it
 * acknowledges before it reads.
 */
function rescue(w: Worker, others: () => boolean): void {
  const child = w.process as ChildProcess & { send: (...args: unknown[]) => boolean };
  const handed = new Map<number, { close(): void }>();
  const send = child.send;
  child.send = (...args: unknown[]) => {
    const [m, handle] = args as [ClusterMessage | undefined, { close(): void } | undefined];
    if (handle && m?.cmd === 'NODE_CLUSTER' && m.act === 'newconn' && typeof m.seq === 'number') handed.set(m.seq, handle);
    return send.apply(child, args);
  };
  child.on('internalMessage', (m: ClusterMessage) => {
    if (m?.cmd === 'NODE_CLUSTER' && typeof m.ack === 'number') handed.delete(m.ack);
  });
  // When node:cluster takes the worker out of the rotation, after it (its listeners came first,
  // with fork): at the channel's end, or at the exit when the channel has ended without saying
  // so (it does not while a connection sent on it is unacknowledged).
  const orphans = () => {
    const elsewhere = handed.size > 0 && others();
    for (const [seq, handle] of [...handed]) {
      if (elsewhere) child.emit('internalMessage', { cmd: 'NODE_CLUSTER', ack: seq, accepted: false } satisfies ClusterMessage);
      else handle.close();
    }
    handed.clear();
  };
  child.once('disconnect', orphans);
  child.once('exit', () => {
    if (!child.connected) orphans();
  });
}

/**
 * In a worker: waits for the primary's start message. Resolves with it, or with `undefined` in a
 * process that is not a cluster worker.
 */
export function workerStart(): Promise<StartMessage | undefined> {
  if (!cluster.isWorker) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const on = (m: StartMessage) => {
      if (m?.np !== 'start') return;
      process.off('message', on);
      resolve(m);
    };
    process.on('message', on);
    process.send!({ np: 'hello' } satisfies HelloMessage);
  });
}

/**
 * In a worker: tells the primary it listens, with the lines a single process would print, and
 * stops listening when the primary asks (`running.unlisten()`), before its SIGTERM.
 */
export function workerReady(banner: string[], running?: { unlisten(): void }): void {
  if (running) {
    process.on('message', (m: UnlistenMessage) => {
      if (m?.np !== 'unlisten') return;
      running.unlisten(); // node:cluster tells the primary before the answer below
      process.send?.({ np: 'unlistened' } satisfies UnlistenedMessage);
    });
  }
  process.send?.({ np: 'ready', banner } satisfies ReadyMessage);
}
