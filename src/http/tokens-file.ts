import { readFile } from 'node:fs/promises';
import { parseTokens, TokenError, type Token } from './keys.js';

/**
 * Reads and checks a tokens file: a JSON array of tokens. Node only (it reads a file), hence
 * apart from the keys themselves, which the app uses on any runtime.
 * @throws {TokenError} when the file cannot be read, is not JSON or holds a bad token
 */
export async function loadTokens(file: string): Promise<Token[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new TokenError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TokenError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return parseTokens(json, file);
}
