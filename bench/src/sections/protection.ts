import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { HEARTBEAT_SECONDS } from '../../../contract/src/protection.ts';
import { openDatabase } from '../../../server/src/db/client.ts';
import { hlsMasterUrl } from '../../../server/src/features/media/hls-urls.ts';
import type { Bench } from '../bench.ts';
import { startNginx } from '../nginx.ts';
import { recreateDatabase } from '../postgres.ts';
import { firstCourse, getJson, loginAsAdmin, startProduct, type Product } from '../product.ts';
import { ms, thousands, type Measurement, type SectionResult } from '../report.ts';
import { describeRate, describeTransfer, wrk } from '../wrk.ts';

/** Viewers playing at once, each heartbeating every HEARTBEAT_SECONDS: 10,000 make ~333 a second. */
const VIEWERS = 10_000;
const HEARTBEATS_PER_SECOND = Math.round(VIEWERS / HEARTBEAT_SECONDS);
const HEARTBEAT_P99_BUDGET_MS = 50;
/** Viewers whose segments wrk asks for in turn, each with its own session, lease and signed playlist. */
const SEGMENT_VIEWERS = 500;
/** A 6 s segment of each rendition of a 360p/720p/1080p ladder, about the sizes the pipeline makes. */
const SEGMENT_BYTES = [300 * 1024, 1024 * 1024, 2 * 1024 * 1024];
const SESSION_SECRET = 'bench-protection-secret-0123456789abcdef';

/**
 * The ids the seed gives viewers, sessions and leases: the MD5 of a name, shaped as a version-4
 * UUID (the API refuses other versions). `UUID_SQL` is the same in SQL.
 */
const uuidOf = (text: string) => {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
};
const UUID_SQL = (name: string) => sql.raw(`(substr(md5(${name}), 1, 12) || '4' || substr(md5(${name}), 14, 3) || '8' || substr(md5(${name}), 18, 15))::uuid`);

/** wrk's requests in turn over lines of `<path> <cookie>`: each viewer its own signed URL and session. */
const CYCLE_VIEWERS = `
local lines = {}
for line in io.lines(os.getenv("REQUEST_LIST")) do lines[#lines + 1] = line end
local next = 0
request = function()
  next = next % #lines + 1
  local path, cookie, method = string.match(lines[next], "^(%S+) (%S+) (%S+)$")
  return wrk.format(method, path, { ["cookie"] = cookie })
end
`;

/**
 * Content protection's two costs, on PostgreSQL: the heartbeats of 10,000 viewers (one row
 * updated each, ~333 a second) and the lease check every HLS segment of a learner passes, against
 * nginx serving the same files. Viewers, sessions and leases are written straight into the
 * database while the server is stopped.
 */
export async function measureProtection(bench: Bench): Promise<SectionResult> {
  const databaseUrl = await recreateDatabase(bench.postgresUrl, 'lms_bench_protection');
  const dataDir = path.join(bench.workDir, 'protection');
  const options = { name: 'protection', dataDir, databaseUrl, logDir: bench.workDir, env: { SESSION_SECRET, VIDEO_PROCESSING: 'off' } };
  let product: Product = await startProduct(options);
  const course = await firstCourse(product);
  await product.stop();

  bench.log(`  seeding ${thousands(VIEWERS)} viewers with a session and a lease each`);
  const folder = `hls/${randomBytes(16).toString('hex')}`;
  const segments = SEGMENT_BYTES.map((_, index) => `0_0000${index}.ts`);
  const ladderDir = path.join(dataDir, 'media', folder);
  await fs.mkdir(ladderDir, { recursive: true });
  await fs.writeFile(path.join(ladderDir, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360\n0.m3u8\n');
  for (const [index, bytes] of SEGMENT_BYTES.entries()) await fs.writeFile(path.join(ladderDir, segments[index]!), randomBytes(bytes));
  const database = await openDatabase({ url: databaseUrl });
  let lectureId: string;
  try {
    const { db } = database;
    const { rows } = (await db.execute(sql`
      insert into lectures (course_id, title, description, video_key, video_type, video_bytes, duration_seconds, video_state, hls_key, rank)
      values (${course.id}, 'Protected lecture', 'Leased.', 'videos/bench.mp4', 'video/mp4', 1, 600, 'ready', ${folder}, 'zz')
      returning id`)) as unknown as { rows: { id: string }[] };
    lectureId = rows[0]!.id;
    await db.execute(sql`
      insert into users (id, full_name, email, password_hash, subscription_ends_at)
      select ${UUID_SQL("'bench-viewer-' || i")}, 'Viewer ' || i, 'viewer' || i || '@bench.example', 'no password', now() + interval '30 days'
      from generate_series(1, ${VIEWERS}) as i`);
    await db.execute(sql`
      insert into sessions (token_hash, id, user_id, expires_at)
      select encode(sha256(convert_to('benchviewer' || i, 'UTF8')), 'hex'), ${UUID_SQL("'bench-session-' || i")}, ${UUID_SQL("'bench-viewer-' || i")}, now() + interval '1 day'
      from generate_series(1, ${VIEWERS}) as i`);
    // Leases long enough for the segments' runs; the heartbeats bring them back to the usual 75 s.
    await db.execute(sql`
      insert into playbacks (id, code, user_id, session_id, lecture_id, address_block, device, ends_at)
      select ${UUID_SQL("'bench-playback-' || i")}, 'B' || lpad(i::text, 7, '0'), ${UUID_SQL("'bench-viewer-' || i")}, ${UUID_SQL("'bench-session-' || i")},
        ${lectureId}, '203.0.113.0/24', 'Chrome on Windows', now() + interval '1 hour'
      from generate_series(1, ${VIEWERS}) as i`);
  } finally {
    await database.close();
  }
  const rows: Measurement[] = [];
  const notes: string[] = [];
  product = await startProduct(options);
  try {
    // Segments: each viewer's own signed URL with its own session, the lease checked on every one.
    const expiresAt = new Date(Date.now() + 3600 * 1000);
    const lines: string[] = [];
    for (let i = 1; i <= SEGMENT_VIEWERS; i++) {
      const master = hlsMasterUrl(SESSION_SECRET, { key: folder, viewerId: uuidOf(`bench-viewer-${i}`), expiresAt });
      const base = master.slice(0, master.lastIndexOf('/'));
      for (const name of segments) lines.push(`${base}/${name} lms_session=benchviewer${i} GET`);
    }
    const probe = lines[0]!.split(' ');
    const probed = await fetch(`${product.url}${probe[0]}`, { headers: { cookie: probe[1]! } });
    if (probed.status !== 200) throw new Error(`a leased segment answered ${probed.status}: ${await probed.text()}`);
    await probed.arrayBuffer();
    const productList = path.join(bench.workDir, 'protection-segments.txt');
    const nginxList = path.join(bench.workDir, 'protection-segments-nginx.txt');
    await fs.writeFile(productList, lines.join('\n'));
    await fs.writeFile(nginxList, segments.map((name) => `/media/${folder}/${name} none GET`).join('\n'));
    const script = path.join(bench.workDir, 'cycle-viewers.lua');
    await fs.writeFile(script, CYCLE_VIEWERS);
    const nginx = await startNginx(
      bench.workDir,
      { urlPrefix: '/media/hls/', directory: path.join(dataDir, 'media', 'hls') },
      `/media/${folder}/${segments[0]}`,
    );
    try {
      bench.log('  wrk: leased HLS segments against nginx');
      const load = bench.sizes.rangeLoad;
      const theirs = wrk(`${nginx.url}/`, load, { script, env: { REQUEST_LIST: nginxList } });
      const ours = wrk(`${product.url}/`, load, { script, env: { REQUEST_LIST: productList } });
      const ratio = ours.requestsPerSecond / theirs.requestsPerSecond;
      // The same files for an administrator, whose segments skip the lease: what the lease check costs.
      const adminCookie = await loginAsAdmin(product);
      const admin = (await getJson<{ user: { _id: string } }>(product, '/user/me', adminCookie)).user;
      const adminMaster = hlsMasterUrl(SESSION_SECRET, { key: folder, viewerId: admin._id, expiresAt });
      const adminList = path.join(bench.workDir, 'protection-segments-admin.txt');
      const adminBase = adminMaster.slice(0, adminMaster.lastIndexOf('/'));
      await fs.writeFile(adminList, segments.map((name) => `${adminBase}/${name} ${adminCookie} GET`).join('\n'));
      const unleased = wrk(`${product.url}/`, load, { script, env: { REQUEST_LIST: adminList } });
      rows.push(
        { what: 'nginx, HLS segments (reference)', measured: describeTransfer(theirs) },
        {
          what: `HLS segments of ${SEGMENT_VIEWERS} learners in turn, each request's session and lease checked`,
          measured: describeTransfer(ours),
          reference: 'nginx',
          ratio,
          budget: '≥ 50 %',
          met: ratio >= 0.5,
        },
        {
          what: "the same segments with an administrator's session, which holds no lease (no lease check)",
          measured: describeTransfer(unleased),
          reference: 'nginx',
          ratio: unleased.requestsPerSecond / theirs.requestsPerSecond,
        },
      );
      notes.push(
        `Segments: ${segments.length} files of ${SEGMENT_BYTES.map((bytes) => `${bytes / 1024} KB`).join(', ')} (a 6 s segment of 360p, 720p, 1080p), each of ${SEGMENT_VIEWERS} learners asking for all three with their own signed URL and session; wrk one thread, ${load.connections} connections, ${load.seconds} s. A learner's segment passes the signature, the session (cached), the video's course (cached) and the session's lease (cached until the lease's end, dropped on every instance when it is stopped).`,
      );
    } finally {
      await nginx.stop();
    }

    // Heartbeats: first as fast as they come, then at the rate 10,000 viewers make.
    const beats: string[] = [];
    for (let i = 1; i <= VIEWERS; i++) beats.push(`/api/v1/playback/${uuidOf(`bench-playback-${i}`)}/heartbeat lms_session=benchviewer${i} POST`);
    const beatList = path.join(bench.workDir, 'protection-heartbeats.txt');
    await fs.writeFile(beatList, beats.join('\n'));
    bench.log(`  wrk: heartbeats of ${thousands(VIEWERS)} viewers in turn`);
    const flat = wrk(`${product.url}/`, bench.sizes.apiLoad, { script, env: { REQUEST_LIST: beatList } });
    rows.push({ what: `POST /api/v1/playback/:id/heartbeat, ${thousands(VIEWERS)} viewers in turn, as fast as they come`, measured: describeRate(flat) });

    const seconds = bench.quick ? 5 : 20;
    bench.log(`  heartbeats at ${HEARTBEATS_PER_SECOND}/s for ${seconds} s, PostgreSQL's load beside`);
    const before = await databaseLoad(databaseUrl);
    const paced = await pacedHeartbeats(product.url, beats, HEARTBEATS_PER_SECOND, seconds);
    const cpuAfter = await postgresCpuSeconds();
    // Each backend reports its counts to the statistics at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = { ...(await databaseLoad(databaseUrl)), cpuSeconds: cpuAfter };
    const elapsed = paced.seconds;
    const rowsPerBeat = (after.playbackUpdates - before.playbackUpdates) / paced.count;
    rows.push(
      {
        what: `heartbeats at ${HEARTBEATS_PER_SECOND}/s (${thousands(VIEWERS)} viewers every ${HEARTBEAT_SECONDS} s): p50 / p99`,
        measured: `${ms(paced.p50)} / ${ms(paced.p99)} (${thousands(paced.count)} sent, ${paced.failed} failed)`,
        budget: `p99 ≤ ${HEARTBEAT_P99_BUDGET_MS} ms, none failed`,
        met: paced.p99 <= HEARTBEAT_P99_BUDGET_MS && paced.failed === 0,
      },
      { what: 'PostgreSQL during them: transactions a second', measured: `${thousands((after.commits - before.commits) / elapsed)}/s` },
      {
        what: 'PostgreSQL during them: rows of playbacks written a heartbeat',
        measured: rowsPerBeat.toFixed(2),
        budget: '1',
        met: Math.abs(rowsPerBeat - 1) < 0.05,
      },
      {
        what: "PostgreSQL during them: its processes' CPU",
        measured: `${(((after.cpuSeconds - before.cpuSeconds) / elapsed) * 100).toFixed(1)} % of one core`,
      },
    );
    notes.push(
      `Heartbeats: ${thousands(VIEWERS)} subscribers, each with a session and a lease, in the database of PostgreSQL ${await serverVersion(databaseUrl)}; wrk one thread, ${bench.sizes.apiLoad.connections} connections, then requests sent on a fixed schedule of ${HEARTBEATS_PER_SECOND} a second for ${seconds} s from the bench's own process (latency from the request's scheduled time, so a slow answer delays nothing after it). One heartbeat is one UPDATE of its playback. CPU: the sum of utime and stime of every process named postgres on this machine.`,
    );
  } finally {
    await product.stop();
  }
  return { title: 'Content protection', rows, notes };
}

/** Heartbeats on a fixed schedule, `perSecond` for `seconds`, each measured from when it was due. */
async function pacedHeartbeats(url: string, lines: string[], perSecond: number, seconds: number) {
  const total = perSecond * seconds;
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const [requestPath, cookie] = lines[n % lines.length]!.split(' ');
    pending.push(
      fetch(`${url}${requestPath}`, { method: 'POST', headers: { cookie: cookie! } }).then(
        async (response) => {
          await response.arrayBuffer();
          if (response.status !== 200) failed++;
          latencies.push(performance.now() - due);
        },
        () => void failed++,
      ),
    );
  }
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return { count: total, failed, p50: at(50), p99: at(99), seconds: (performance.now() - started) / 1000 };
}

async function databaseLoad(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const stats = await client.query<{ commits: string; updates: string }>(
      `select (select xact_commit from pg_stat_database where datname = current_database()) as commits,
              (select n_tup_upd from pg_stat_user_tables where relname = 'playbacks') as updates`,
    );
    return { at: Date.now(), commits: Number(stats.rows[0]!.commits), playbackUpdates: Number(stats.rows[0]!.updates), cpuSeconds: await postgresCpuSeconds() };
  } finally {
    await client.end();
  }
}

/** CPU seconds used so far by every process named postgres (Linux /proc). */
async function postgresCpuSeconds(): Promise<number> {
  const ticksPerSecond = 100;
  let ticks = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
    const fields = stat.slice(close + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / ticksPerSecond;
}

async function serverVersion(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('show server_version')).rows[0]!.server_version.split(' ')[0]!;
  } finally {
    await client.end();
  }
}
