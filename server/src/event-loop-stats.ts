import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How often the histogram's timer runs. */
const RESOLUTION_MS = 10;

/**
 * For the bench (bench/src/sections/hls.ts: the event loop's delay while a video is transcoded):
 * every second, the last second's delay percentiles in milliseconds, appended to `file` as a JSON
 * line. Answers a function that stops it.
 */
export function writeEventLoopStats(file: string, everyMs = 1000): () => void {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  // The histogram holds the time between two runs of its own timer, which starts every RESOLUTION_MS:
  // a loop never held reads as that period. How long a callback waited is what lies past it.
  const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
  const timer = setInterval(() => {
    const line = { at: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    histogram.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, everyMs).unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
