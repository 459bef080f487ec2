import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on module `name` (without extension) beside `base`, an
 * `import.meta.url`. From compiled output the module is a sibling .js file; when
 * the sources run directly (tests, tsx), it is the .ts file, and the thread
 * registers tsx's loader before importing it. The thread gets the host's Node flags
 * less those about the host's own entry (see `threadArgv`).
 */
export function startThread(base: string, name: string): Worker {
  const argv = threadArgv(process.execArgv);
  // nothing to leave out: inherit, as Node does by default
  const options: WorkerOptions = argv.length === process.execArgv.length ? {} : { execArgv: argv };
  if (!base.endsWith('.ts')) return worker(new URL(`./${name}.js`, base), options);
  const url = new URL(`./${name}.ts`, base).href;
  const tsx = JSON.stringify(import.meta.resolve?.('tsx/esm/api') ?? 'tsx/esm/api');
  const boot = `import(${tsx}).then((t) => { t.register(); return import(${JSON.stringify(url)}); });`;
  return worker(boot, { ...options, eval: true });
}

/**
 * Node flags that say what the host's own entry is (its code given with `-e`, its input
 * type, a syntax check, a REPL), and whether each is followed by a value when not written
 * `--flag=value`. A thread runs a module file: inherited, `--input-type` makes it fail to
 * start ("--input-type can only be used with string input"), so a host started as
 * `node --input-type=module -e '…'` could not load a PBF on threads.
 */
const ENTRY_FLAGS: Record<string, boolean> = {
  '--input-type': true,
  '--eval': true,
  '--print': true,
  '--check': false,
  '--interactive': false,
};

/** Short forms of the entry flags, which may be run together (`-pe CODE`); e and p take the code. */
const SHORT_ENTRY = /^-[epci]+$/;

/**
 * The Node flags a thread gets of the host's `execArgv`: all but those about the host's
 * own entry (`--input-type`, `-e`/`--eval` and its code, `-p`/`--print`, `-c`, `-i`).
 * Loader flags (`--import`, `--require`, `--loader`, `--conditions`) are kept: a thread's
 * imports may need them.
 */
export function threadArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i];
    if (SHORT_ENTRY.test(a)) {
      if (/[ep]/.test(a)) i++; // its code
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq < 0 ? a : a.slice(0, eq);
    if (Object.hasOwn(ENTRY_FLAGS, flag)) {
      if (ENTRY_FLAGS[flag] && eq < 0) i++; // its value
      continue;
    }
    out.push(a);
  }
  return out;
}

/**
 * A Worker with the given flags. Node refuses process-wide flags (V8's, such as
 * `--max-old-space-size`, or `--title`) in an explicit `execArgv`, where inherited it
 * ignores them (they apply to the process already): those it names are left out.
 */
function worker(what: string | URL, options: WorkerOptions): Worker {
  try {
    return new Worker(what, options);
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    if (code !== 'ERR_WORKER_INVALID_EXEC_ARGV' || !options.execArgv) throw err;
    // "Initiated Worker with invalid execArgv flags: --a=1, --b"
    const invalid = new Set(message.slice(message.indexOf(': ') + 2).split(', '));
    return new Worker(what, { ...options, execArgv: options.execArgv.filter((a) => !invalid.has(String(a))) });
  }
}
