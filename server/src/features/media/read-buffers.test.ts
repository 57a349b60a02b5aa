import { describe, expect, it } from 'vitest';
import { createReadBuffers } from './read-buffers.ts';

describe('read buffers', () => {
  it('gives exactly the length asked for, and the same memory again once it was given back', () => {
    const buffers = createReadBuffers();
    const first = buffers.take(1024 * 1024);
    expect(first.length).toBe(1024 * 1024);
    first.fill(7);
    buffers.give(first);
    expect(buffers.keptBytes).toBe(1024 * 1024);

    const second = buffers.take(700_000);
    expect(second.length).toBe(700_000);
    expect(second.buffer).toBe(first.buffer);
    expect(buffers.keptBytes).toBe(0);
  });

  it('never hands one buffer to two readers at once', () => {
    const buffers = createReadBuffers();
    const one = buffers.take(100_000);
    const two = buffers.take(100_000);
    expect(two.buffer).not.toBe(one.buffer);
  });

  it('keeps nothing larger than its largest size, and no more bytes than its limit', () => {
    const buffers = createReadBuffers({ largest: 1024 * 1024, maxKeptBytes: 2 * 1024 * 1024 });
    const large = buffers.take(1024 * 1024 + 1);
    expect(large.length).toBe(1024 * 1024 + 1);
    buffers.give(large);
    expect(buffers.keptBytes).toBe(0);

    const taken = [buffers.take(1024 * 1024), buffers.take(1024 * 1024), buffers.take(1024 * 1024)];
    for (const buffer of taken) buffers.give(buffer);
    expect(buffers.keptBytes).toBe(2 * 1024 * 1024);
  });

  it('keeps no buffer it did not make', () => {
    const buffers = createReadBuffers();
    buffers.give(Buffer.alloc(64 * 1024));
    buffers.give(Buffer.allocUnsafe(100));
    expect(buffers.keptBytes).toBe(0);
  });

  it('keeps a buffer given back twice only once', () => {
    const buffers = createReadBuffers();
    const buffer = buffers.take(100_000);
    buffers.give(buffer);
    buffers.give(buffer);
    expect(buffers.keptBytes).toBe(128 * 1024);
    expect(buffers.take(100_000).buffer).toBe(buffer.buffer);
    expect(buffers.take(100_000).buffer).not.toBe(buffer.buffer);
  });
});
