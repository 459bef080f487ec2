/** Where the commands that write a file (`build`, `tiles`) check that they can. */
import { access, constants, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Why the output cannot be written, or undefined: its folder must be writable and it
 * must not be a folder itself.
 */
export async function outputProblem(output: string): Promise<string | undefined> {
  try {
    if ((await stat(output)).isDirectory()) return 'is a directory';
  } catch {
    // not there yet: fine
  }
  try {
    await access(dirname(output), constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return e.code === 'ENOENT' ? `no such directory ${dirname(output)}` : `cannot write in ${dirname(output)} (${e.code ?? e.message})`;
  }
  return undefined;
}
