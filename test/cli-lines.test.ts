/** serve's standard output: lines batched into one write per turn of the event loop, in order, none lost. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { batchedLines } from '../src/cli/lines.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('batchedLines: one write per turn, in order, nothing lost', () => {
  it('the lines of one turn go out in one write, after it', async () => {
    const writes: string[] = [];
    const lines = batchedLines((t) => writes.push(t));
    lines.line('a');
    lines.line('b');
    lines.line('c');
    expect(writes).toEqual([]);
    await tick();
    expect(writes).toEqual(['a\nb\nc\n']);
    lines.line('d');
    await tick();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('flush() writes what is queued at once; an empty queue writes nothing', async () => {
    const writes: string[] = [];
    const lines = batchedLines((t) => writes.push(t));
    lines.line('x');
    lines.flush();
    expect(writes).toEqual(['x\n']);
    await tick();
    lines.flush();
    expect(writes).toEqual(['x\n']);
  });

  it('64 KiB queued are written without waiting for the turn to end', () => {
    const writes: string[] = [];
    const lines = batchedLines((t) => writes.push(t));
    const long = 'y'.repeat(1023);
    for (let i = 0; i < 64; i++) lines.line(long);
    expect(writes).toHaveLength(1);
    expect(writes[0]!.length).toBe(64 * 1024);
  });
});

describe('batchedLines with a window: one write per window, in order, nothing lost', () => {
  // Fake timers: the window is checked at its edges, not raced against real sleeps.
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate'] }));
  afterEach(() => vi.useRealTimers());

  it('the lines of a window go out in one write when it ends, not at the end of the turn', () => {
    const writes: string[] = [];
    const lines = batchedLines((t) => writes.push(t), 40);
    lines.line('a');
    vi.advanceTimersByTime(0); // the turn ends: nothing yet
    lines.line('b');
    vi.advanceTimersByTime(39);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\n']);
    lines.line('c');
    vi.advanceTimersByTime(39);
    expect(writes).toEqual(['a\nb\n']);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('flush() and 64 KiB still write at once', () => {
    const writes: string[] = [];
    const lines = batchedLines((t) => writes.push(t), 1000);
    lines.line('x');
    lines.flush();
    expect(writes).toEqual(['x\n']);
    for (let i = 0; i < 64; i++) lines.line('y'.repeat(1023));
    expect(writes).toHaveLength(2);
  });
});
