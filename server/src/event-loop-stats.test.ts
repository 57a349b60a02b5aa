import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { writeEventLoopStats } from './event-loop-stats.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('writes how long callbacks waited, not the period of its own timer: an idle loop reads near 0, a held one its hold', async () => {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'event-loop-stats-'));
  const file = path.join(folder, 'stats.jsonl');
  const stop = writeEventLoopStats(file, 400);
  try {
    // A line of an idle loop, then one with the loop held for 150 ms.
    await sleep(450);
    const heldFrom = performance.now();
    while (performance.now() - heldFrom < 150);
    await sleep(450);
  } finally {
    stop();
  }
  const [idle, held] = (await fs.readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { at: number; p50: number; p99: number; max: number });
  // Read as the histogram holds them, every figure would be at least its timer's 10 ms.
  expect(idle!.p50).toBeLessThan(5);
  expect(held!.max).toBeGreaterThanOrEqual(140);
  await fs.rm(folder, { recursive: true });
});
