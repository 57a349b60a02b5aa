import fs from 'node:fs/promises';
import path from 'node:path';
import type { Bench } from '../bench.ts';
import { startNginx } from '../nginx.ts';
import { firstCourse, getJson, loginAsAdmin, startProduct, uploadLecture, type Product } from '../product.ts';
import { ms, type Measurement, type SectionResult } from '../report.ts';
import { writeTestClip } from '../test-clip.ts';
import { describeRate, describeTransfer, wrk } from '../wrk.ts';

const CLIP_SECONDS = 60;

/** wrk asks for the ladder's segments in turn, from a list of paths (one per line). */
const CYCLE_SEGMENTS = `
local paths = {}
for line in io.lines(os.getenv("SEGMENT_LIST")) do paths[#paths + 1] = line end
local next = 0
request = function()
  next = next % #paths + 1
  return wrk.format("GET", paths[next])
end
`;

interface BenchLecture {
  _id: string;
  title: string;
  hls_url: string | null;
  processing: { state: string; percent: number | null };
}

/**
 * The video pipeline's budgets (the whole ladder against the clip's length, the event loop's delay,
 * segments against nginx), on a fresh embedded product: a 60 s 1080p clip uploaded and timed to
 * ready; the server's event-loop delay and /courses throughput while it transcodes; then the
 * ladder's segments with a viewer's cookie against nginx serving the same files.
 */
export async function measureHls(bench: Bench): Promise<SectionResult> {
  const dataDir = path.join(bench.workDir, 'hls');
  const statsFile = path.join(bench.workDir, 'event-loop.jsonl');
  const clip = path.join(bench.workDir, 'clip-1080p.mp4');
  bench.log(`  generating a ${CLIP_SECONDS} s 1080p clip`);
  writeTestClip(clip, { seconds: CLIP_SECONDS, videoBitrate: '8M' });

  const product: Product = await startProduct({ name: 'hls', dataDir, logDir: bench.workDir, env: { EVENT_LOOP_STATS_FILE: statsFile } });
  const rows: Measurement[] = [];
  const notes: string[] = [];
  try {
    const cookie = await loginAsAdmin(product);
    const course = await firstCourse(product);
    const lectures = async () => (await getJson<{ lectures: BenchLecture[] }>(product, `/courses/${course.id}`, cookie)).lectures;
    // The demo lectures are processed at the first start: wait for them, so the clip's transcode runs alone.
    for (let tries = 0; tries < 600 && (await lectures()).some((lecture) => lecture.processing.state !== 'ready'); tries++) await sleep(500);
    const status = await getJson<{ ffmpeg: string | null }>(product, '/video/status', cookie);
    const idle = wrk(`${product.url}/api/v1/courses`, bench.sizes.apiLoad);

    bench.log('  uploading the clip and timing its ladder');
    await uploadLecture(product, cookie, course.id, clip);
    const uploaded = performance.now();
    const busy = wrk(`${product.url}/api/v1/courses`, { ...bench.sizes.apiLoad, seconds: 5 });
    // From here on the transcode alone: the delay wrk's own load causes is not the transcode's.
    const loopFrom = Date.now() + 1000;
    let ready: BenchLecture | undefined;
    let playable: number | undefined;
    for (let tries = 0; tries < 4800 && !ready; tries++) {
      const lecture = (await lectures()).find((candidate) => candidate.title === 'Bench lecture');
      if (lecture?.hls_url && playable === undefined) playable = (performance.now() - uploaded) / 1000;
      if (lecture?.processing.state === 'ready') ready = lecture;
      else await sleep(playable === undefined ? 100 : 250);
    }
    if (!ready || playable === undefined) throw new Error('the clip was not processed within 10 minutes');
    const seconds = (performance.now() - uploaded) / 1000;
    const playableRatio = playable / CLIP_SECONDS;
    const loopFrames = (await fs.readFile(statsFile, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { at: number; p99: number; max: number })
      .filter((frame) => frame.at >= loopFrom && frame.at <= Date.now());
    const loopP99 = Math.max(...loopFrames.map((frame) => frame.p99));
    const ratio = seconds / CLIP_SECONDS;
    rows.push(
      {
        what: '60 s 1080p clip: upload answered → first rendition (360p) playable as HLS',
        measured: `${playable.toFixed(1)} s = ${playableRatio.toFixed(2)} × the clip`,
        budget: '≤ 0.25 ×',
        met: playableRatio <= 0.25,
      },
      {
        what: `60 s 1080p clip: upload answered → whole ladder (360p, 720p, 1080p) ready`,
        measured: `${seconds.toFixed(1)} s = ${ratio.toFixed(2)} × the clip`,
        budget: '≤ 0.5 ×',
        met: ratio <= 0.5,
      },
      {
        what: 'event-loop delay during the transcode, no other load (worst 1 s p99)',
        measured: `${ms(loopP99)} (${loopFrames.length} s sampled)`,
        budget: '< 20 ms',
        met: loopP99 < 20,
      },
      { what: '/api/v1/courses, idle', measured: describeRate(idle) },
      {
        what: '/api/v1/courses, during the transcode',
        measured: describeRate(busy),
        reference: 'idle',
        ratio: busy.requestsPerSecond / idle.requestsPerSecond,
      },
    );
    notes.push(
      `ffmpeg: ${status.ffmpeg}; x264 preset superfast without B-frames, bilinear scaling, the clip's AAC kept as it is; the 360p step in one ffmpeg run, stored and played at once, then 720p and 1080p in one more (decoded once, scaled once: 1080p passes through).`,
      "The event-loop delay is the server's own (`monitorEventLoopDelay`, EVENT_LOOP_STATS_FILE), one line a second, less the 10 ms period of the histogram's own timer (results before 2026-11-28's seventh session include it); ffmpeg runs as a child at nice 10; the ladder's files are moved into storage (rename), not streamed; the server logs each stage's time (`timings` of 'lecture video processed').",
    );

    // Segments: the product with the viewer's cookie against nginx on the same files.
    const master = new URL(ready.hls_url!, product.url);
    const base = master.pathname.slice(0, master.pathname.lastIndexOf('/'));
    const folder = base.slice(base.lastIndexOf('/') + 1);
    const names = (await fs.readdir(path.join(dataDir, 'media', 'hls', folder))).filter((name) => name.endsWith('.ts'));
    const productList = path.join(bench.workDir, 'segments-product.txt');
    const nginxList = path.join(bench.workDir, 'segments-nginx.txt');
    await fs.writeFile(productList, names.map((name) => `${base}/${name}`).join('\n'));
    await fs.writeFile(nginxList, names.map((name) => `/media/hls/${folder}/${name}`).join('\n'));
    const script = path.join(bench.workDir, 'cycle-segments.lua');
    await fs.writeFile(script, CYCLE_SEGMENTS);
    const nginx = await startNginx(
      bench.workDir,
      { urlPrefix: '/media/hls/', directory: path.join(dataDir, 'media', 'hls') },
      `/media/hls/${folder}/${names[0]}`,
    );
    try {
      bench.log(`  wrk: ${names.length} segments in turn, the product and nginx`);
      const load = bench.sizes.rangeLoad;
      const theirs = wrk(`${nginx.url}/`, load, { script, env: { SEGMENT_LIST: nginxList } });
      const ours = wrk(`${product.url}/`, load, { script, env: { SEGMENT_LIST: productList }, headers: { cookie } });
      const segmentRatio = ours.requestsPerSecond / theirs.requestsPerSecond;
      rows.push(
        { what: 'nginx, HLS segments (reference)', measured: describeTransfer(theirs) },
        {
          what: "signed HLS segments, viewer's cookie",
          measured: describeTransfer(ours),
          reference: 'nginx',
          ratio: segmentRatio,
          budget: '≥ 60 %',
          met: segmentRatio >= 0.6,
        },
      );
      notes.push(
        `Segments: ${names.length} MPEG-TS files of the 60 s ladder (all renditions), requested in turn; wrk one thread, ${load.connections} connections, ${load.seconds} s.`,
      );
    } finally {
      await nginx.stop();
    }
  } finally {
    await product.stop();
  }
  return { title: 'Video pipeline and HLS', rows, notes };
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
