import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on module `name` (without extension) beside `base`, an
 * `import.meta.url`. From compiled output the module is a sibling .js file; when
 * the sources run directly (tests, tsx), it is the .ts file, and the thread
 * registers tsx's loader before importing it.
 */
export function startThread(base: string, name: string): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base));
  const url = new URL(`./${name}.ts`, base).href;
  const tsx = JSON.stringify(import.meta.resolve?.('tsx/esm/api') ?? 'tsx/esm/api');
  const boot = `import(${tsx}).then((t) => { t.register(); return import(${JSON.stringify(url)}); });`;
  return new Worker(boot, { eval: true });
}
