#!/usr/bin/env node
/**
 * The `nepal-places` command. Each subcommand lives in its own module under `src/cli/`
 * and returns the process exit code.
 */
const commands: Record<string, () => Promise<{ run: (argv: string[]) => Promise<number> }>> = {
  build: () => import('./cli/build.js'),
  nearby: () => import('./cli/nearby.js'),
  serve: () => import('./cli/serve.js'),
  tiles: () => import('./cli/tiles.js'),
};

const usage = `usage: nepal-places <command> [options]\ncommands: ${Object.keys(commands).join(', ')}`;

async function main(argv: string[]): Promise<number> {
  const name = argv[0];
  const load = name === undefined ? undefined : commands[name];
  if (!load) {
    process.stderr.write(`nepal-places: ${name === undefined ? 'no command given' : `unknown command '${name}'`}\n${usage}\n`);
    return 2;
  }
  return (await load()).run(argv.slice(1));
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    process.stderr.write(`nepal-places: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
