import { describe, it, expect } from 'vitest';
import { TagReader, type TagRuns } from '../src/load/block.js';

// two objects' tags, as a block's string table and pair indexes hold them
const strings = ['', 'highway', 'residential', 'name', 'Kanti Path', 'barrier', 'gate', 'access', 'no'];
const runs: TagRuns = {
  owner: Uint32Array.of(3, 7),
  start: Uint32Array.of(0, 2, 4),
  kv: Uint32Array.of(1, 2, 3, 4, 5, 6, 7, 8),
};

describe('TagReader: one object at a time', () => {
  it('gets a value by key on the object it points at, undefined for a key it lacks', () => {
    const tags = new TagReader(runs, strings);
    expect(tags.at(0).get('highway')).toBe('residential');
    expect(tags.get('name')).toBe('Kanti Path');
    expect(tags.get('barrier')).toBeUndefined();
    expect(tags.at(1).get('barrier')).toBe('gate');
    expect(tags.get('highway')).toBeUndefined();
  });

  it('walks the pairs in order, by string and by string-table index', () => {
    const tags = new TagReader(runs, strings).at(1);
    expect(tags.count).toBe(2);
    expect([tags.key(0), tags.value(0), tags.key(1), tags.value(1)]).toEqual(['barrier', 'gate', 'access', 'no']);
    expect([tags.keyIndex(1), tags.valueIndex(1)]).toEqual([7, 8]);
  });

  it('its get is bound: handed on as a getter, it reads the object the reader points at now', () => {
    const tags = new TagReader(runs, strings);
    const { get } = tags;
    tags.at(1);
    expect(get('access')).toBe('no');
  });

  it('fills a map with the tags, cleared first', () => {
    const m = new Map([['stale', 'x']]);
    expect([...new TagReader(runs, strings).at(0).map(m)]).toEqual([
      ['highway', 'residential'],
      ['name', 'Kanti Path'],
    ]);
  });

  it('reads nothing before it is pointed at runs, and another block after on()', () => {
    const tags = new TagReader();
    expect(tags.count).toBe(0);
    expect(tags.get('highway')).toBeUndefined();
    expect(tags.on(runs, strings).at(0).get('highway')).toBe('residential');
  });
});
