/**
 * Crafted snapshots that pass the checksum (re-sealed after the change) but hold what no
 * snapshot writer makes: each is refused at load as `corrupted`, before a query can hang
 * on it or a command report something false from it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, SnapshotError } from '../src/index.js';
import { engine } from './support/fixture.js';
import { TRANSIT } from './support/raw.js';
import { directory, withDirectory } from './support/crafted.js';

let bytes: Uint8Array;

beforeAll(async () => {
  bytes = buildSnapshot(await engine(TRANSIT));
});

/** What loading the bytes throws: the SnapshotError's problem and message, or 'loaded'. */
function refusal(b: Uint8Array): { problem: string; message: string } | 'loaded' {
  try {
    fromSnapshot(b, 'crafted.places');
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    return { problem: err.problem, message: err.message };
  }
  return 'loaded';
}

/** The snapshot with the directory's stats text changed: `"name":value` becomes `"name":text`. */
function withStat(name: string, text: string): Uint8Array {
  const { dir } = directory(bytes);
  const json = JSON.stringify(dir);
  const key = `"${name}":${JSON.stringify((dir.meta.stats as Record<string, unknown>)[name])}`;
  const at = json.indexOf(key, json.indexOf('"stats":'));
  expect(at, `stats.${name} in the directory`).toBeGreaterThan(0);
  return withDirectory(bytes, json.slice(0, at) + `"${name}":${text}` + json.slice(at + key.length));
}

describe('the stats a snapshot carries are counts: whole, finite and not negative', () => {
  it('the snapshot as written loads, its stats as the index it was built from', async () => {
    expect(fromSnapshot(bytes).stats).toEqual((await engine(TRANSIT)).stats);
    // and rewriting its directory unchanged keeps it loadable (the crafting itself is sound)
    expect(fromSnapshot(withDirectory(bytes, JSON.stringify(directory(bytes).dir))).stats).toEqual((await engine(TRANSIT)).stats);
  });

  it.each([
    ['nodes', '-1'], ['ways', '1e999'], ['relations', '-1e999'], ['points', '2.5'], ['skippedBlobs', '-7'],
    ['roadEdges', '"12"'], ['badSchedules', 'null'], ['restrictions', '9007199254740993'],
  ])('stats.%s = %s is refused as corrupted', (name, text) => {
    const r = refusal(withStat(name, text));
    expect(r).not.toBe('loaded');
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toContain(`stats.${name}`);
  });

  it('a skippedBlobs count left out (snapshots written before it was counted) reads as 0', () => {
    const { dir } = directory(bytes);
    delete (dir.meta.stats as Record<string, unknown>).skippedBlobs;
    expect(fromSnapshot(withDirectory(bytes, JSON.stringify(dir))).stats.skippedBlobs).toBe(0);
  });

  it('stats that are not an object are refused as corrupted', () => {
    const { dir } = directory(bytes);
    for (const stats of [null, [1, 2, 3]]) {
      expect(refusal(withDirectory(bytes, JSON.stringify({ ...dir, meta: { ...dir.meta, stats } })))).toMatchObject({ problem: 'corrupted' });
    }
  });
});
