import fs from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bench } from '../bench.ts';
import { residentBytes } from '../processes.ts';
import { uploadLecture, writeVideo } from '../product.ts';
import { mb, type SectionResult } from '../report.ts';
import type { RunningProduct } from './api.ts';

const BUDGET_BYTES = 64 * 1024 * 1024;

/** Uploads a generated video through the API while sampling the server's RSS every 10 ms. */
export async function measureUpload(bench: Bench, { label, product, cookie }: RunningProduct, courseId: string): Promise<SectionResult> {
  const bytes = bench.sizes.uploadBytes;
  const file = path.join(bench.workDir, 'upload.mp4');
  bench.log(`  writing a ${mb(bytes)} video, then uploading it to the ${label} server`);
  await writeVideo(file, bytes);

  const before = await residentBytes(product.pid);
  let peak = before;
  let uploading = true;
  const sampler = (async () => {
    while (uploading) {
      peak = Math.max(peak, await residentBytes(product.pid));
      await sleep(10);
    }
  })();
  const started = performance.now();
  try {
    // curl streams the file from disk in its own process while this one samples.
    await uploadLecture(product, cookie, courseId, file);
  } finally {
    uploading = false;
    await sampler;
    await fs.rm(file, { force: true });
  }
  const seconds = (performance.now() - started) / 1000;
  const growth = peak - before;
  return {
    title: 'Upload memory',
    rows: [
      {
        what: `upload of a ${mb(bytes)} video, ${label}`,
        measured: `RSS ${mb(before)} before, ${mb(peak)} at peak: +${mb(growth)} (${(bytes / 1024 ** 2 / seconds).toFixed(0)} MB/s)`,
        budget: '< 64 MB growth',
        met: growth < BUDGET_BYTES,
      },
    ],
  };
}
