import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { pagePaths } from '../../../contract/src/pages.ts';
import { openDatabase } from '../../../server/src/db/client.ts';
import type { Bench } from '../bench.ts';
import { launchChromium } from '../chromium.ts';
import { startNginx } from '../nginx.ts';
import { recreateDatabase } from '../postgres.ts';
import { firstCourse, getJson, loginAsAdmin, root, startProduct, uploadLecture, type Product } from '../product.ts';
import { ms, percentile, type Measurement, type SectionResult } from '../report.ts';
import { writeTestClip } from '../test-clip.ts';

const CLIP_SECONDS = 8;
/** Views per measure of the product: p95 of 20 is the second worst. */
const RUNS = 20;
const QUICK_RUNS = 8;
/** Views per measure of the reference: only its p50 is set beside the product's, and it varies little. */
const REFERENCE_RUNS = 8;
const QUICK_REFERENCE_RUNS = 4;
const P50_BUDGET_MS = 500;
const P95_BUDGET_MS = 1000;
/** In the breakdown, a request sent this long after it was asked for is shown with the time it was sent. */
const QUEUED_MS = 10;
/** A view that paints no frame in this long has failed, and the section with it. */
const VIEW_TIMEOUT_MS = 15_000;
const SESSION_SECRET = 'bench-first-frame-secret-0123456789abcdef';
/**
 * `FIRST_FRAME_LATENCY_MS=<n>`: Chromium's network emulation adds n ms to every request of every
 * view, the product's and the reference's: the round trips a viewer has and localhost does not. The
 * lines say so; the budgets are for runs without it.
 */
const LATENCY_MS = Math.max(0, Number(process.env.FIRST_FRAME_LATENCY_MS ?? 0) || 0);
/** One subscriber per product view: a cold view is a new device, and each holds a lease for a while after it closes. */
const VIEWERS = 400;

const UUID_SQL = (name: string) => sql.raw(`(substr(md5(${name}), 1, 12) || '4' || substr(md5(${name}), 14, 3) || '8' || substr(md5(${name}), 18, 15))::uuid`);

/** The same flags as the journeys (e2e/playwright.config.ts), and autoplay without a gesture: the load measure presses play from a script. */
/**
 * In every page, before its own scripts: when the address carries `#press-at-load`, play is pressed
 * on the first <video> as soon as it has a source (again on the next tick if a new load interrupted
 * it), and `__firstFrame` resolves with `performance.now()` (from the navigation's start) at the first
 * frame painted. Otherwise `__pressPlay` presses play as the controls' button does, recording the time,
 * and `__firstFrame` resolves at the first frame after it.
 */
const PAGE_PROBE = `
(() => {
  // The main thread's long tasks (script run, parsed, rendered), for the breakdown: not buffered, so observed from the start.
  window.__longTasks = [];
  try {
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((task) => ({ start: task.startTime, end: task.startTime + task.duration })))).observe({ type: 'longtask' });
  } catch {}
  let resolveFrame;
  window.__firstFrame = new Promise((resolve) => (resolveFrame = resolve));
  const watch = (video) => video.requestVideoFrameCallback(() => resolveFrame(performance.now()));
  if (location.hash === '#press-at-load') {
    const press = () => {
      const video = document.querySelector('video');
      if (!video || !(video.currentSrc || video.src)) return void setTimeout(press, 5);
      window.__sourceAt ??= performance.now();
      watch(video);
      video.play().catch(() => setTimeout(press, 5));
    };
    press();
    return;
  }
  // What the play button of the controls does: play() on the video, in the page, timed there.
  window.__pressPlay = () => {
    const video = document.querySelector('video');
    window.__pressedAt = performance.now();
    watch(video);
    video.play().catch(() => undefined);
  };
})();
`;

interface FfLecture {
  _id: string;
  title: string;
  hls_url: string | null;
  processing: { state: string };
}

interface Target {
  /** "product" or "nginx". */
  server: string;
  format: 'HLS' | 'MP4';
  /** The page's address. */
  url: string;
  /** Subscriber cookies, one per product view (none for nginx). */
  cookie?: () => string;
}

/**
 * Time to first frame in Debian's Chromium, on a subscriber's lecture page of the product and on a
 * bare page served by nginx (the same ladder and MP4, hls.js or a plain <video>): click on play →
 * first frame painted, and navigation → first frame with play pressed as soon as the player has a
 * source; for the HLS ladder and the MP4 (a lecture with no ladder plays its upload), with cold
 * caches (a fresh context each view) and warm (the same context, after a first view).
 */
export async function measureFirstFrame(bench: Bench): Promise<SectionResult> {
  const runs = bench.quick ? QUICK_RUNS : RUNS;
  const referenceRuns = bench.quick ? QUICK_REFERENCE_RUNS : REFERENCE_RUNS;
  const sectionStarted = performance.now();
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_first_frame');
  const dataDir = path.join(bench.workDir, 'first-frame');
  const mediaDir = path.join(dataDir, 'media');
  const options = { name: 'first-frame', dataDir, databaseUrl, logDir: bench.workDir, env: { SESSION_SECRET } };
  const clip = path.join(bench.workDir, 'first-frame-1080p.mp4');
  bench.log(`  generating a ${CLIP_SECONDS} s 1080p clip`);
  writeTestClip(clip, { seconds: CLIP_SECONDS, videoBitrate: '6M', faststart: true });

  let product: Product = await startProduct(options);
  const course = await firstCourse(product);
  try {
    const cookie = await loginAsAdmin(product);
    bench.log('  uploading the clip and waiting for its ladder');
    await uploadLecture(product, cookie, course.id, clip);
    const lectures = async () => (await getJson<{ lectures: FfLecture[] }>(product, `/courses/${course.id}`, cookie)).lectures;
    let ready: FfLecture | undefined;
    for (let tries = 0; tries < 1200 && !ready; tries++) {
      ready = (await lectures()).find((lecture) => lecture.title === 'Bench lecture' && lecture.processing.state === 'ready');
      if (!ready) await sleep(250);
    }
    if (!ready) throw new Error('the clip was not processed within 5 minutes');
  } finally {
    await product.stop();
  }

  // Subscribers with a session each, and a lecture of the same upload that has no ladder: it plays the MP4.
  const database = await openDatabase({ url: databaseUrl });
  let hlsLectureId: string;
  let mp4LectureId: string;
  let hlsFolder: string;
  let mp4Key: string;
  try {
    const { db } = database;
    const { rows } = (await db.execute(
      sql`select id, video_key, video_type, video_bytes, hls_key, duration_seconds from lectures where course_id = ${course.id} and title = 'Bench lecture'`,
    )) as unknown as { rows: { id: string; video_key: string; video_type: string; video_bytes: number; hls_key: string; duration_seconds: number }[] };
    const uploaded = rows[0]!;
    hlsLectureId = uploaded.id;
    hlsFolder = uploaded.hls_key;
    mp4Key = `${path.posix.dirname(uploaded.video_key)}/${randomBytes(16).toString('hex')}.mp4`;
    await fs.copyFile(path.join(mediaDir, uploaded.video_key), path.join(mediaDir, mp4Key));
    const inserted = (await db.execute(sql`
      insert into lectures (course_id, title, description, video_key, video_type, video_bytes, duration_seconds, video_state, rank)
      values (${course.id}, 'Bench lecture as MP4', 'No ladder: the upload plays.', ${mp4Key}, ${uploaded.video_type}, ${uploaded.video_bytes},
        ${uploaded.duration_seconds}, 'failed', 'zzz')
      returning id`)) as unknown as { rows: { id: string }[] };
    mp4LectureId = inserted.rows[0]!.id;
    await db.execute(sql`
      insert into users (id, full_name, email, password_hash, subscription_ends_at)
      select ${UUID_SQL("'first-frame-viewer-' || i")}, 'Viewer ' || i, 'ffviewer' || i || '@bench.example', 'no password', now() + interval '30 days'
      from generate_series(1, ${VIEWERS}) as i`);
    await db.execute(sql`
      insert into sessions (token_hash, user_id, expires_at)
      select encode(sha256(convert_to('firstframe' || i, 'UTF8')), 'hex'), ${UUID_SQL("'first-frame-viewer-' || i")}, now() + interval '1 day'
      from generate_series(1, ${VIEWERS}) as i`);
  } finally {
    await database.close();
  }

  // The reference: nginx serving the same files, hls.js from node_modules, and two bare pages.
  const referenceDir = path.join(bench.workDir, 'first-frame-reference');
  await fs.mkdir(referenceDir, { recursive: true });
  await fs.symlink(path.join(mediaDir, hlsFolder), path.join(referenceDir, 'hls'));
  await fs.symlink(path.join(mediaDir, mp4Key), path.join(referenceDir, 'video.mp4'));
  await fs.copyFile(path.join(root, 'node_modules/hls.js/dist/hls.min.js'), path.join(referenceDir, 'hls.min.js'));
  const bare = (body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>reference</title></head><body>${body}</body></html>`;
  await fs.writeFile(
    path.join(referenceDir, 'hls.html'),
    bare(`<video controls playsinline preload="metadata" style="width:960px;aspect-ratio:16/9"></video><script src="hls.min.js"></script>
<script>const hls = new Hls(); hls.loadSource('hls/master.m3u8'); hls.attachMedia(document.querySelector('video'));</script>`),
  );
  await fs.writeFile(
    path.join(referenceDir, 'mp4.html'),
    bare(`<video controls playsinline preload="metadata" src="video.mp4" style="width:960px;aspect-ratio:16/9"></video>`),
  );
  const nginx = await startNginx(bench.workDir, { urlPrefix: '/reference/', directory: referenceDir }, '/reference/hls.min.js');

  product = await startProduct(options);
  const browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
  const rows: Measurement[] = [];
  const notes: string[] = [];
  try {
    let viewer = 0;
    const nextViewer = () => {
      viewer += 1;
      if (viewer > VIEWERS) throw new Error(`more than ${VIEWERS} product views`);
      return `firstframe${viewer}`;
    };
    const lecturePage = (lectureId: string) => `${product.url}${pagePaths.courseLecture}?id=${course.id}&lecture=${lectureId}`;
    const targets: Target[] = [
      { server: 'nginx', format: 'HLS', url: `${nginx.url}/reference/hls.html` },
      { server: 'product', format: 'HLS', url: lecturePage(hlsLectureId), cookie: nextViewer },
      { server: 'nginx', format: 'MP4', url: `${nginx.url}/reference/mp4.html` },
      { server: 'product', format: 'MP4', url: lecturePage(mp4LectureId), cookie: nextViewer },
    ];
    /** The reference's p50 of each measure, which the product's line is set beside. */
    const referenceP50 = new Map<string, number>();
    const started = performance.now();
    for (const target of targets) {
      for (const measure of ['click', 'load'] as const) {
        for (const cache of ['cold', 'warm'] as const) {
          bench.log(`  ${target.server} ${target.format}: ${measure}, ${cache}`);
          const reference = target.server === 'nginx';
          const times = await viewsOf(browser, target, measure, cache, reference ? referenceRuns : runs);
          const p50 = percentile(times, 50);
          const p95 = percentile(times, 95);
          const key = `${target.format} ${measure} ${cache}`;
          if (reference) referenceP50.set(key, p50);
          const theirs = referenceP50.get(key);
          rows.push({
            what: `${reference ? 'nginx + bare page (reference), ' : ''}${target.format}, ${measure === 'click' ? 'play pressed → first frame' : 'navigation → first frame, play pressed at load'}, ${cache} cache${LATENCY_MS > 0 ? `, ${LATENCY_MS} ms added to each request` : ''}`,
            measured: `p50 ${ms(p50)} · p95 ${ms(p95)}`,
            ...(!reference && theirs !== undefined && { reference: `nginx p50 ${ms(theirs)}`, ratio: p50 / theirs }),
            ...(!reference && LATENCY_MS === 0 && { budget: 'p50 ≤ 500 ms, p95 ≤ 1 s', met: p50 <= P50_BUDGET_MS && p95 <= P95_BUDGET_MS }),
          });
        }
      }
    }
    notes.push(`Where a cold view's time goes (HLS, from the navigation's start): ${await breakdown(browser, targets[1]!)}.`);
    notes.push(`Where a cold view's time goes (MP4, from the navigation's start): ${await breakdown(browser, targets[3]!)}.`);
    notes.push(
      `${runs} views per line of the product and ${referenceRuns} of the reference, in turn, in Debian's Chromium (headless); ${CLIP_SECONDS} s 1080p clip (x264, 6 Mb/s), its ladder made by the product. ` +
        'Cold: a fresh browser context each view; warm: one context, a first view not counted, then the views counted. ' +
        "Press: the page loaded and the video has its metadata, then play pressed in the page (play(), as the controls' button does), timed there; first frame by requestVideoFrameCallback. " +
        'Load: from the navigation, play pressed by a script as soon as the <video> has a source (the lecture page does not autoplay its first lecture). ' +
        `The MP4 is a lecture of the same upload with no ladder (failed), which the player plays as MP4. The product's views are a subscriber's, each under a lease. ` +
        (LATENCY_MS > 0 ? `Every request of every view ${LATENCY_MS} ms later (Chromium's network emulation, FIRST_FRAME_LATENCY_MS). ` : '') +
        `Measuring took ${((performance.now() - started) / 1000).toFixed(0)} s, after ${((started - sectionStarted) / 1000).toFixed(0)} s making the clip, its ladder and the viewers.`,
    );
  } finally {
    await browser.close();
    await product.stop();
    await nginx.stop();
  }
  return { title: 'Time to first frame (Chromium)', rows, notes };
}

/** `runs` views of `target`, each answering milliseconds to the first frame. */
async function viewsOf(browser: Browser, target: Target, measure: 'click' | 'load', cache: 'cold' | 'warm', runs: number): Promise<number[]> {
  const newContext = () => openContext(browser, target);
  const times: number[] = [];
  let warm: BrowserContext | undefined;
  try {
    if (cache === 'warm') {
      warm = await newContext();
      const page = await newPage(warm);
      await view(page, target.url, measure);
      await page.close();
    }
    for (let run = 0; run < runs; run++) {
      const context = warm ?? (await newContext());
      const page = await newPage(context);
      try {
        times.push(await view(page, target.url, measure));
      } finally {
        await page.close();
        if (!warm) await context.close();
      }
    }
  } finally {
    await warm?.close();
  }
  return times;
}

/** A fresh browser context for `target`, with the page probe and, for the product, a subscriber signed in. */
async function openContext(browser: Browser, target: Target): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(PAGE_PROBE);
  if (target.cookie) {
    // Signed in as the web app keeps it: the session cookie, and the user in local storage.
    const origin = new URL(target.url).origin;
    const token = target.cookie();
    const me = await fetch(`${origin}/api/v1/user/me`, { headers: { cookie: `lms_session=${token}` } });
    if (me.status !== 200) throw new Error(`a subscriber's /user/me answered ${me.status}`);
    const { user } = (await me.json()) as { user: object };
    await context.addCookies([{ name: 'lms_session', value: token, url: origin, httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript(
      `if (!localStorage.getItem('isLoggedIn')) { localStorage.setItem('isLoggedIn', 'true'); localStorage.setItem('data', ${JSON.stringify(JSON.stringify(user))}); }`,
    );
  }
  return context;
}

/** A page of `context`, its requests slowed by LATENCY_MS when it is set. */
async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  if (LATENCY_MS > 0) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: LATENCY_MS, downloadThroughput: -1, uploadThroughput: -1 });
  }
  return page;
}

/** One view: milliseconds from the click (or the navigation's start) to the first frame painted. */
async function view(page: Page, url: string, measure: 'click' | 'load'): Promise<number> {
  if (measure === 'load') {
    await page.goto(`${url}#press-at-load`, { waitUntil: 'commit' });
    return await page.evaluate(
      `Promise.race([window.__firstFrame, new Promise((_, reject) => setTimeout(() => reject(new Error('no frame')), ${VIEW_TIMEOUT_MS}))])`,
    );
  }
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, { timeout: VIEW_TIMEOUT_MS });
  await page.evaluate('window.__pressPlay()');
  const frameAt = await page.evaluate<number>(
    `Promise.race([window.__firstFrame, new Promise((_, reject) => setTimeout(() => reject(new Error('no frame')), ${VIEW_TIMEOUT_MS}))])`,
  );
  const clickedAt = await page.evaluate<number>('window.__pressedAt');
  return frameAt - clickedAt;
}

/**
 * One cold view, navigation → first frame, told as what the page asked for and when each answer
 * ended (the Resource Timing of the page, milliseconds from the navigation's start): the waterfall
 * the time to the first frame is made of.
 */
async function breakdown(browser: Browser, target: Target): Promise<string> {
  const context = await openContext(browser, target);
  try {
    const page = await newPage(context);
    const frameAt = await view(page, target.url, 'load');
    // A string, not a function: what the bench's compiler adds to functions does not exist in the page.
    const entries = await page.evaluate<{ name: string; start: number; end: number; sent?: number }[]>(`(() => {
      const navigation = performance.getEntriesByType('navigation')[0];
      const rows = [{ name: 'HTML', start: navigation.requestStart, end: navigation.responseEnd }];
      for (const entry of performance.getEntriesByType('resource')) {
        const url = new URL(entry.name);
        rows.push({ name: url.pathname.replace(/^.*\\/(assets|media)\\//, '') + (url.search ? '?…' : ''), start: entry.startTime, end: entry.responseEnd, sent: entry.requestStart });
      }
      for (const task of window.__longTasks) rows.push({ name: 'main thread busy', start: task.start, end: task.end });
      if (window.__sourceAt !== undefined) rows.push({ name: 'the <video> has its source', start: window.__sourceAt, end: window.__sourceAt });
      return rows;
    })()`);
    const asked = entries
      .sort((a, b) => a.start - b.start)
      .map((entry) => {
        const name = entry.name.length > 40 ? `…${entry.name.slice(-39)}` : entry.name;
        // A request that waited for one of the host's connections (HTTP/1.1 gives a host six) says when it was sent.
        const waited = entry.sent !== undefined && entry.sent - entry.start > QUEUED_MS ? ` (sent ${Math.round(entry.sent)})` : '';
        return `${name} ${Math.round(entry.start)}→${Math.round(entry.end)}${waited}`;
      })
      .join(', ');
    return `${asked}; first frame ${ms(frameAt)}`;
  } finally {
    await context.close();
  }
}

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));
