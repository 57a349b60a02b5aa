import fs from 'node:fs/promises';
import path from 'node:path';
import type { Bench } from '../bench.ts';
import { startNginx } from '../nginx.ts';
import type { Measurement, SectionResult } from '../report.ts';
import { describeTransfer, wrk } from '../wrk.ts';
import type { RunningProduct } from './api.ts';

const RANGE_BYTES = 1024 * 1024;

/** wrk asks for a random 1 MiB-aligned range of the file on every request. */
const RANDOM_RANGES = `
local size = tonumber(os.getenv("VIDEO_BYTES"))
local chunks = math.floor(size / ${RANGE_BYTES})
math.randomseed(os.time())
request = function()
  local first = math.random(0, chunks - 1) * ${RANGE_BYTES}
  wrk.headers["Range"] = "bytes=" .. first .. "-" .. (first + ${RANGE_BYTES - 1})
  return wrk.format("GET")
end
`;

export interface Lecture {
  /** The signed URL the product handed to its viewer. */
  signedUrl: string;
  bytes: number;
}

export async function measureVideo(bench: Bench, products: (RunningProduct & { lecture: Lecture })[]): Promise<SectionResult> {
  const script = path.join(bench.workDir, 'random-ranges.lua');
  await fs.writeFile(script, RANDOM_RANGES);
  const { rangeLoad, fullGetLoad } = bench.sizes;
  const rows: Measurement[] = [];

  for (const { label, product, cookie, lecture } of products) {
    const filePath = new URL(lecture.signedUrl).pathname;
    // The product keeps a video with key `videos/<name>` at DATA_DIR/media/videos/<name>.
    const nginx = await startNginx(bench.workDir, { urlPrefix: '/media/private/', directory: path.join(product.dataDir, 'media') }, filePath);
    try {
      const env = { VIDEO_BYTES: String(lecture.bytes) };
      bench.log(`  wrk: 1 MiB ranges${bench.budgets ? '' : ' and full GETs'} of a ${Math.round(lecture.bytes / 1024 ** 2)} MB lecture, ${label} and nginx`);
      const ranges = {
        product: wrk(lecture.signedUrl, rangeLoad, { script, env, headers: { cookie } }),
        nginx: wrk(`${nginx.url}${filePath}`, rangeLoad, { script, env }),
      };
      const rangeRatio = ranges.product.bytesPerSecond / ranges.nginx.bytesPerSecond;
      rows.push(
        { what: `nginx, 1 MiB ranges (reference for ${label})`, measured: describeTransfer(ranges.nginx) },
        {
          what: `signed URL, 1 MiB ranges, ${label}`,
          measured: describeTransfer(ranges.product),
          reference: 'nginx',
          ratio: rangeRatio,
          budget: '≥ 50 %',
          met: rangeRatio >= 0.5,
        },
      );
      if (bench.budgets) continue;
      const full = {
        product: wrk(lecture.signedUrl, fullGetLoad, { headers: { cookie } }),
        nginx: wrk(`${nginx.url}${filePath}`, fullGetLoad, {}),
      };
      rows.push(
        { what: `nginx, full GETs (reference for ${label})`, measured: describeTransfer(full.nginx) },
        {
          what: `signed URL, full GETs, ${label}`,
          measured: describeTransfer(full.product),
          reference: 'nginx',
          ratio: full.product.bytesPerSecond / full.nginx.bytesPerSecond,
        },
      );
    } finally {
      await nginx.stop();
    }
  }
  return {
    title: 'Video delivery',
    rows,
    notes: [
      `wrk, one thread; random 1 MiB-aligned ranges with ${rangeLoad.connections} connections${bench.budgets ? '' : `, full GETs with ${fullGetLoad.connections}`}, ${rangeLoad.seconds} s per run after a 1 s warm-up.`,
      "Every product request checks the signature, the key and the expiry; the viewer's session and right to watch are read from the database at most every 10 s per session (docs/decisions/0009). nginx serves the same file with one worker and sendfile.",
    ],
  };
}
