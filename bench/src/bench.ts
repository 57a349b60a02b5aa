import type { Load } from './wrk.ts';

/** What every section gets: the size of this run and where it may write. */
export interface Bench {
  quick: boolean;
  /**
   * `--budgets`: only what a budget judges is measured. The figures set beside them for
   * understanding (full GETs, a learner's lectures, /courses idle, a stale build's start) are left to
   * the sections' own runs, so that judging every budget stays short enough to do often.
   */
  budgets: boolean;
  /** A scratch folder for data folders, generated files and server logs; removed at the end. */
  workDir: string;
  /** An administrator's connection to the PostgreSQL server; bench databases are created and dropped through it. */
  postgresUrl: string;
  sizes: Sizes;
  log(message: string): void;
}

export interface Sizes {
  /** API requests: the product and the hello-world get the same connections and duration. */
  apiLoad: Load;
  /** Video: the product and nginx get the same connections and duration. */
  rangeLoad: Load;
  fullGetLoad: Load;
  catalogueCourses: number;
  lectureBytes: number;
  uploadBytes: number;
  scale: { users: number; payments: number; courses: number; runs: number };
  /** Progress: subscriber sessions saving in turn; learners × 50 lectures of progress rows for the engagement queries. */
  progress: { sessions: number; learners: number; runs: number };
  startRuns: number;
  lighthousePages: string[];
}

const MiB = 1024 * 1024;

/** In `lighthousePages`: the course page of the catalogue's first course (its id is known only at run time). */
export const COURSE_PAGE = '/course/description?id=<first course>';

export const FULL: Sizes = {
  apiLoad: { connections: 50, seconds: 10 },
  rangeLoad: { connections: 16, seconds: 10 },
  fullGetLoad: { connections: 4, seconds: 10 },
  catalogueCourses: 1000,
  lectureBytes: 100 * MiB,
  uploadBytes: 1024 * MiB,
  scale: { users: 1_000_000, payments: 1_000_000, courses: 10_000, runs: 20 },
  progress: { sessions: 5000, learners: 100_000, runs: 10 },
  startRuns: 3,
  /** `COURSE_PAGE` stands for the page of the catalogue's first course, found at run time. */
  lighthousePages: ['/', '/courses', '/about', COURSE_PAGE],
};

/**
 * `--budgets`: the full sizes, with wrk's runs of 5 s instead of 10. Each run still makes
 * thousands of requests (the slowest, the video's 1 MiB ranges, about 4,000), so its rate moves
 * with the machine's load, not with the run's length, and the reference runs as long.
 */
export const BUDGETS: Sizes = {
  ...FULL,
  apiLoad: { ...FULL.apiLoad, seconds: 5 },
  rangeLoad: { ...FULL.rangeLoad, seconds: 5 },
};

/** `--quick`: the same measurements, smaller and shorter, in under two minutes. */
export const QUICK: Sizes = {
  ...FULL,
  apiLoad: { ...FULL.apiLoad, seconds: 3 },
  rangeLoad: { ...FULL.rangeLoad, seconds: 3 },
  fullGetLoad: { ...FULL.fullGetLoad, seconds: 3 },
  uploadBytes: 256 * MiB,
  scale: { ...FULL.scale, users: 100_000, payments: 100_000 },
  progress: { sessions: 2000, learners: 10_000, runs: 5 },
  startRuns: 1,
  lighthousePages: ['/'],
};
