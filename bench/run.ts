// `npm run bench [-- --quick] [-- --budgets] [-- --only=api,video,hls,upload,scale,progress,curriculum,protection,billing,weight,start,lighthouse,abuse,cluster,captions,quizzes,learners,first-frame]`
// Measures the product against reference servers started in the same run, prints one
// markdown table per section, and writes them to bench/results/<date>….md. Not a test: see README.md.
// `--budgets` runs the sections that judge the performance budgets, and exits non-zero when one is missed.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from '../scripts/debian-packages.mjs';
import { BUDGETS, FULL, QUICK, type Bench } from './src/bench.ts';
import { addSubscriber, fillCatalogue } from './src/catalogue.ts';
import { recreateDatabase } from './src/postgres.ts';
import { run } from './src/processes.ts';
import { buildIfStale, firstCourse, latestLectureUrl, loginAsAdmin, startProduct, uploadLecture, writeVideo, type Product } from './src/product.ts';
import { budgetTable, sectionMarkdown, type SectionResult } from './src/report.ts';
import { measureAbuse } from './src/sections/abuse.ts';
import { measureApi, type RunningProduct } from './src/sections/api.ts';
import { measureFirstFrame } from './src/sections/first-frame.ts';
import { measureHls } from './src/sections/hls.ts';
import { measureLearners } from './src/sections/learners.ts';
import { measureLighthouse } from './src/sections/lighthouse.ts';
import { measureBilling } from './src/sections/billing.ts';
import { measureCaptions } from './src/sections/captions.ts';
import { measureCluster } from './src/sections/cluster.ts';
import { measureCurriculum } from './src/sections/curriculum.ts';
import { measureProtection } from './src/sections/protection.ts';
import { measureProgress } from './src/sections/progress.ts';
import { measureQuizzes } from './src/sections/quizzes.ts';
import { measureScale } from './src/sections/scale.ts';
import { measureStart } from './src/sections/start.ts';
import { measureUpload } from './src/sections/upload.ts';
import { measureVideo, type Lecture } from './src/sections/video.ts';
import { measureWeight } from './src/sections/weight.ts';

const SECTIONS = [
  'api',
  'video',
  'hls',
  'upload',
  'lighthouse',
  'start',
  'scale',
  'progress',
  'curriculum',
  'protection',
  'billing',
  'weight',
  'abuse',
  'cluster',
  'captions',
  'quizzes',
  'learners',
  'first-frame',
] as const;
type SectionName = (typeof SECTIONS)[number];

/** The sections that judge the performance budgets, in about ten minutes together. */
const BUDGET_SECTIONS: SectionName[] = ['api', 'video', 'hls', 'first-frame', 'progress', 'weight', 'start'];

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const budgets = args.includes('--budgets');
const only = budgets
  ? BUDGET_SECTIONS
  : args
      .find((arg) => arg.startsWith('--only='))
      ?.slice('--only='.length)
      .split(',');
// What else runs on the machine stretches every figure: kept with them.
const loadAtStart = os.loadavg();
const wanted = (name: SectionName) => !only || only.includes(name);
for (const name of only ?? []) if (!SECTIONS.includes(name as SectionName)) throw new Error(`unknown section ${name}; known: ${SECTIONS.join(', ')}`);

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const started = performance.now();
const log = (message: string) => console.error(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);

const bench: Bench = {
  quick,
  budgets,
  workDir: await fs.mkdtemp(path.join(os.tmpdir(), 'lms-bench-')),
  postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  sizes: quick ? QUICK : budgets ? BUDGETS : FULL,
  log,
};

/**
 * A product server with a catalogue of `catalogueCourses` and one lecture of
 * `lectureBytes` uploaded through the API: started, stopped to fill the catalogue
 * (an embedded folder has one owner at a time), and started again.
 * Without the video pipeline: its uploads play as uploaded, and no transcode of the demo's or the
 * bench's videos takes a core from the reads measured (the hls section measures reads during one).
 */
async function prepareProduct(label: string, name: string, databaseUrl?: string): Promise<RunningProduct & { lecture: Lecture; courseId: string }> {
  const dataDir = path.join(bench.workDir, name);
  const options = { name, dataDir, databaseUrl, logDir: bench.workDir, env: { VIDEO_PROCESSING: 'off' } };
  log(`Preparing the ${label} server: ${bench.sizes.catalogueCourses} courses and a ${Math.round(bench.sizes.lectureBytes / 1024 ** 2)} MB lecture`);
  let product: Product = await startProduct(options);
  const course = await firstCourse(product);
  const video = path.join(bench.workDir, 'lecture.mp4');
  await writeVideo(video, bench.sizes.lectureBytes);
  await uploadLecture(product, await loginAsAdmin(product), course.id, video);
  await fs.rm(video);
  await product.stop();
  const target = databaseUrl ? { url: databaseUrl } : { dir: path.join(dataDir, 'db') };
  await fillCatalogue(target, bench.sizes.catalogueCourses, course.thumbnailKey);
  const subscriberCookie = await addSubscriber(target);
  product = await startProduct(options);
  const cookie = await loginAsAdmin(product);
  const signedUrl = await latestLectureUrl(product, cookie, course.id);
  return {
    label,
    database: databaseUrl ? 'postgres' : 'pglite',
    product,
    cookie,
    subscriberCookie,
    courseId: course.id,
    lecture: { signedUrl, bytes: bench.sizes.lectureBytes },
  };
}

const results: SectionResult[] = [];
/** How long each section took, from its title to its table: the budgets' run has a budget of its own. */
const sectionTimes: { title: string; seconds: number }[] = [];
let sectionStarted = performance.now();
const begin = (title: string) => {
  sectionStarted = performance.now();
  log(title);
};
const report = (result: SectionResult) => {
  results.push(result);
  sectionTimes.push({ title: result.title, seconds: (performance.now() - sectionStarted) / 1000 });
  console.log(`\n${sectionMarkdown(result)}\n`);
};

try {
  ensureDebianPackages({ wrk: 'wrk', nginx: 'nginx-light', '/usr/bin/chromium': 'chromium', curl: 'curl' });
  log('Building the web app and the server where stale');
  await buildIfStale();
  sectionTimes.push({ title: 'Building the web app and the server where stale', seconds: (performance.now() - started) / 1000 });

  const servers: Awaited<ReturnType<typeof prepareProduct>>[] = [];
  try {
    const preparing = performance.now();
    if (wanted('api') || wanted('video') || wanted('upload') || wanted('lighthouse')) {
      servers.push(await prepareProduct('embedded PGlite', 'embedded'));
    }
    if (wanted('api') || wanted('video')) {
      servers.push(await prepareProduct('PostgreSQL', 'postgres', await recreateDatabase(bench.postgresUrl, 'lms_bench_api')));
    }
    if (servers.length > 0)
      sectionTimes.push({ title: 'Preparing the servers of the API and video sections', seconds: (performance.now() - preparing) / 1000 });
    const embedded = servers[0]!;
    if (wanted('api')) {
      begin('API throughput');
      report(await measureApi(bench, servers));
    }
    if (wanted('video')) {
      begin('Video delivery');
      report(await measureVideo(bench, servers));
    }
    if (wanted('upload')) {
      begin('Upload memory');
      report(await measureUpload(bench, embedded, embedded.courseId));
    }
    if (wanted('lighthouse')) {
      begin('Lighthouse');
      report(await measureLighthouse(bench, embedded.product));
    }
  } finally {
    for (const server of servers) await server.product.stop();
  }
  if (wanted('hls')) {
    begin('Video pipeline and HLS');
    report(await measureHls(bench));
  }
  if (wanted('start')) {
    begin('Start time');
    report(await measureStart(bench));
  }
  if (wanted('scale')) {
    begin('Scale on PostgreSQL');
    report(await measureScale(bench));
  }
  if (wanted('progress')) {
    begin('Learner progress');
    report(await measureProgress(bench));
  }
  if (wanted('curriculum')) {
    begin('Curriculum: reorders and the public page');
    report(await measureCurriculum(bench));
  }
  if (wanted('protection')) {
    begin('Content protection: heartbeats and leased segments');
    report(await measureProtection(bench));
  }
  if (wanted('billing')) {
    begin('Billing');
    report(await measureBilling(bench));
  }
  if (wanted('cluster')) {
    begin('Cluster');
    report(await measureCluster(bench));
  }
  if (wanted('captions')) {
    begin('Captions: search inside lectures, reading a caption file');
    report(await measureCaptions(bench));
  }
  if (wanted('quizzes')) {
    begin('Quizzes: the results over 100,000 attempts, grading 50 submissions at once');
    report(await measureQuizzes(bench));
  }
  if (wanted('learners')) {
    begin('Learners at a million');
    report(await measureLearners(bench));
  }
  if (wanted('first-frame')) {
    begin('Time to first frame in Chromium, against nginx and a bare page');
    report(await measureFirstFrame(bench));
  }
  if (wanted('weight')) {
    begin('Front-end weight');
    report(await measureWeight(bench));
  }
  if (wanted('abuse')) {
    begin('Abuse: hostile avatar, forged reset links, forgot password');
    report(await measureAbuse(bench));
  }
} finally {
  await fs.rm(bench.workDir, { recursive: true, force: true });
}

const runSeconds = (performance.now() - started) / 1000;
if (budgets) {
  // Judging every budget is worth doing often only while it stays short.
  report({
    title: 'The budgets’ run itself',
    rows: [
      {
        what: '`npm run bench -- --budgets`, from its start to its last table',
        measured: `${(runSeconds / 60).toFixed(1)} min`,
        budget: '≤ 10 min',
        met: runSeconds <= 600,
      },
      ...sectionTimes.map(({ title, seconds }) => ({ what: title, measured: `${seconds.toFixed(0)} s` })),
    ],
  });
}

const date = new Date().toISOString().slice(0, 10);
// A run of some sections only is kept beside the full run of the day, and a run again beside the
// one before it: a noisy run is repeated, not written over.
const name = `${date}${budgets ? '-budgets' : only ? `-${only.join('-')}` : ''}${quick ? '-quick' : ''}`;
const file = await unusedName(path.join(benchDir, 'results'), name, '.md');
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const loads = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
// What was measured is the working tree: a run of changes not yet committed says so (results written before it aside).
const uncommitted = run('git', ['-C', path.dirname(benchDir), 'status', '--porcelain', '--', '.', ':!bench/results'])
  .split('\n')
  .filter(Boolean).length;
const commit = `${run('git', ['rev-parse', '--short', 'HEAD']).trim()}${uncommitted > 0 ? ` with ${uncommitted} changed file${uncommitted === 1 ? '' : 's'} not committed` : ''}`;
const header = [
  `# Bench ${date}${quick ? ' (--quick)' : ''}`,
  '',
  `\`npm run bench${args.length ? ` -- ${args.join(' ')}` : ''}\` at commit ${commit}, Node ${process.version}, ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 1024 ** 3)} GB; ${runSeconds.toFixed(0)} s in all. Budgets as each section sets them.`,
  '',
  `Load average (1, 5, 15 min) at the start: ${loads(loadAtStart)}; at the end: ${loads(os.loadavg())}.`,
];
const judged = budgetTable(results);
await fs.mkdir(path.dirname(file), { recursive: true });
await fs.writeFile(file, `${[header.join('\n'), ...(budgets ? [judged.markdown] : []), ...results.map(sectionMarkdown)].join('\n\n')}\n`);
log(`Written to ${path.relative(process.cwd(), file)}`);
if (budgets) {
  console.log(`\n${judged.markdown}\n`);
  if (judged.missed > 0) {
    log(`${judged.missed} budget${judged.missed === 1 ? '' : 's'} missed`);
    process.exitCode = 1;
  }
}

/** `<dir>/<name><ext>`, or `<name>-2<ext>`, `-3`… when a run of the same name was written before. */
async function unusedName(dir: string, name: string, ext: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = path.join(dir, `${name}${n === 1 ? '' : `-${n}`}${ext}`);
    if (!(await fs.stat(candidate).catch(() => null))) return candidate;
  }
}
