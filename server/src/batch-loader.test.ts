import { describe, expect, it } from 'vitest';
import { createBatchLoader } from './batch-loader.ts';

describe('batch loader', () => {
  it('answers the keys asked for together with one read, each its own value', async () => {
    const reads: string[][] = [];
    const loader = createBatchLoader(async (keys: string[]) => {
      reads.push(keys);
      return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, key.toUpperCase()]));
    });
    const answers = await Promise.all(['a', 'b', 'a', 'missing'].map((key) => loader.load(key)));
    expect(answers).toEqual(['A', 'B', 'A', undefined]);
    expect(reads).toEqual([['a', 'b', 'missing']]);
  });

  it('reads one batch at a time: keys asked for during a read go together in the next', async () => {
    const reads: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const loader = createBatchLoader(async (keys: number[]) => {
      reads.push(keys);
      if (reads.length === 1) await first;
      return new Map(keys.map((key) => [key, key * 10]));
    });
    const one = loader.load(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [loader.load(2), loader.load(3)];
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toEqual([[1]]);
    release();
    expect(await Promise.all([one, ...later])).toEqual([10, 20, 30]);
    expect(reads).toEqual([[1], [2, 3]]);
  });

  it('reads at most maxBatch keys at once, the rest in the batches after', async () => {
    const reads: number[][] = [];
    const loader = createBatchLoader(
      async (keys: number[]) => {
        reads.push(keys);
        return new Map(keys.map((key) => [key, key]));
      },
      { maxBatch: 2 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5].map((key) => loader.load(key)))).toEqual([1, 2, 3, 4, 5]);
    expect(reads).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('a failed read fails the requests of its batch only', async () => {
    let calls = 0;
    const loader = createBatchLoader(async (keys: string[]) => {
      calls++;
      if (calls === 1) throw new Error('the database is away');
      return new Map(keys.map((key) => [key, key]));
    });
    await expect(Promise.all([loader.load('a'), loader.load('b')])).rejects.toThrow('the database is away');
    expect(await loader.load('c')).toBe('c');
  });
});
