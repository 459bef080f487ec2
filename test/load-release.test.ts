/**
 * What a load lets go of: once the decoder threads have handed over the last block, neither
 * the file's bytes nor any decoded block is reachable through the loader, even before the
 * threads have exited (a turn of the event loop later). The caller's next phase (the indexes
 * of a PBF load) would otherwise run with the whole decoded file unfreeable: most of a
 * Nepal-scale load's peak memory.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openPbf } from '../src/load/read.js';
import { decodeFrames } from '../src/load/decode.js';
import { PLACE_KEEP } from '../src/osm/place.js';
import { CORE } from './support/raw.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('decodeFrames on threads keeps nothing of the load once it resolves', () => {
  for (const given of ['path', 'bytes'] as const) {
    it(`the file (given as ${given}) and every block are collectable right after the last block is taken`, async () => {
      let pbf: Awaited<ReturnType<typeof openPbf>> | undefined = await openPbf(given === 'path' ? CORE : readFileSync(CORE));
      expect(pbf.data.length).toBeGreaterThan(2);
      const file = new WeakRef(pbf.source);
      const blocks: WeakRef<object>[] = [];
      const done = decodeFrames(pbf.source, pbf.data, 2, (_, b) => void blocks.push(new WeakRef(b)), PLACE_KEEP);
      const close = pbf.close;
      pbf = undefined;
      await done;
      await close();
      gc();
      expect(blocks.length).toBeGreaterThan(2);
      expect(file.deref()).toBeUndefined();
      // (the last block's WeakRef was made in this same task, which keeps its target to the task's end)
      expect(blocks.slice(0, -1).filter((b) => b.deref() !== undefined)).toHaveLength(0);
    });
  }
});
