/** Writes a progress line on stderr (the tables go to stdout). */
export function progress(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}
