import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { answers } from '@lms/contract/answers';
import { runChild } from './run-child.ts';

/**
 * Which ffmpeg and ffprobe this instance runs, found once at start: the configured ones, the
 * system's, or the npm packages' static build; and how they are described to the admin.
 */

export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
  /** Which ffmpeg this is, found once at start, for the admin (describeFfmpeg) and the log. */
  build: FfmpegBuild;
}

/** What `ffmpeg -version` and the binary's place tell of an ffmpeg. */
export interface FfmpegBuild {
  /** Its release, e.g. "5.1.9"; a build from between releases has only its own name. */
  version: string;
  /** The binary that runs; absolute when it was found on PATH. */
  path: string;
  /**
   * Who built it: a distribution that names itself in the version (Debian's "5.1.9-0+deb12u1"),
   * the static build that comes in the @ffmpeg-installer npm package, or unknown.
   */
  origin: 'Debian' | 'Ubuntu' | 'npm' | null;
  /** The year of its sources, from its copyright line. */
  year: number | null;
}

export type VideoToolsStatus = { available: true; tools: VideoTools } | { available: false; reason: string };

const VERSION_TIMEOUT_MS = 10_000;

/**
 * The tools to use: FFMPEG_PATH/FFPROBE_PATH when set (and nothing else: an explicit choice that
 * does not run is reported, not replaced), else ffmpeg and ffprobe on PATH (Debian's, kept current
 * by its security updates), else the binaries shipped in the @ffmpeg-installer/@ffprobe-installer
 * packages (so that a fresh install processes videos with no system package), a static build of
 * 2018 that gets no fixes: the admin is told to replace it (ffmpegWarning). Each is run once
 * (`-version`) to prove it works here.
 */
export async function findVideoTools(settings: { ffmpegPath?: string; ffprobePath?: string }): Promise<VideoToolsStatus> {
  if (settings.ffmpegPath || settings.ffprobePath) {
    const pair = { ffmpeg: await onPath(settings.ffmpegPath ?? 'ffmpeg'), ffprobe: await onPath(settings.ffprobePath ?? 'ffprobe') };
    const checked = await check(pair);
    return typeof checked === 'string' ? { available: false, reason: checked } : { available: true, tools: checked };
  }
  const reasons: string[] = [];
  for (const candidate of [{ ffmpeg: await onPath('ffmpeg'), ffprobe: await onPath('ffprobe') }, shippedTools()]) {
    if (!candidate) continue;
    const checked = await check(candidate);
    if (typeof checked !== 'string') return { available: true, tools: checked };
    reasons.push(checked);
  }
  return { available: false, reason: reasons.join('; ') || 'no ffmpeg found' };
}

/** The paths inside the npm packages, when they are installed for this platform. */
function shippedTools(): { ffmpeg: string; ffprobe: string } | undefined {
  const require = createRequire(import.meta.url);
  try {
    const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const ffprobe = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
    return { ffmpeg, ffprobe };
  } catch {
    // No binary for this platform (the packages throw), or not installed.
    return undefined;
  }
}

/** A command's path as the system would find it on PATH (spawn does the same); `name` itself when it has a slash or is not there. */
async function onPath(name: string): Promise<string> {
  if (name.includes('/')) return name;
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.resolve(folder, name);
    if (
      await fs.access(candidate, fs.constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return name;
}

/** The pair as VideoTools if both run; otherwise why not. */
async function check(pair: { ffmpeg: string; ffprobe: string }): Promise<VideoTools | string> {
  // Both at once: a start waits for them, and the second, run once the first had answered, was
  // spawned only after the embedded database had opened.
  const [ffmpeg, ffprobe] = await Promise.all([firstVersionLine(pair.ffmpeg), firstVersionLine(pair.ffprobe)]);
  if (ffmpeg instanceof Error) return `${pair.ffmpeg} could not run (${ffmpeg.message})`;
  if (ffprobe instanceof Error) return `${pair.ffprobe} could not run (${ffprobe.message})`;
  return { ...pair, build: await buildOf(pair.ffmpeg, ffmpeg) };
}

/** The first line of `binary -version`, or why it could not run. */
async function firstVersionLine(binary: string): Promise<string | Error> {
  // npm 11 skips the packages' `chmod u+x` install scripts; the files may need it still.
  if (binary.includes('/')) await fs.chmod(binary, 0o755).catch(() => undefined);
  const run = await runChild(binary, ['-hide_banner', '-version'], { timeoutMs: VERSION_TIMEOUT_MS }).catch((error: Error) => error);
  return run instanceof Error ? run : (run.stdout.split('\n', 1)[0] ?? '');
}

/** What the first line of `ffmpeg -version` ("ffmpeg version 5.1.9-0+deb12u1 Copyright (c) 2000-2026 …") and the binary's place tell. */
async function buildOf(binary: string, versionLine: string): Promise<FfmpegBuild> {
  const named = /version (\S+)/.exec(versionLine)?.[1] ?? 'unknown version';
  const year = Number(/Copyright \(c\) (?:\d{4}-)?(\d{4})/.exec(versionLine)?.[1]) || null;
  // The npm package's build calls itself by a git snapshot ("N-47683-g0e8eb07980-static"); its package says which release that is.
  const shipped = await shippedPackageOf(binary);
  if (shipped) return { version: shipped.version.replace(/\.0$/, ''), path: binary, origin: 'npm', year };
  return {
    version: /^n?(\d+(?:\.\d+)+)/.exec(named)?.[1] ?? named,
    path: binary,
    origin: /ubuntu/i.test(named) ? 'Ubuntu' : /deb\d|debian/i.test(named) ? 'Debian' : null,
    year,
  };
}

/** The @ffmpeg-installer package `binary` came in (its package.json lies beside it), if it did. */
async function shippedPackageOf(binary: string): Promise<{ version: string } | undefined> {
  if (!binary.includes('/')) return undefined;
  const text = await fs.readFile(path.join(path.dirname(binary), 'package.json'), 'utf8').catch(() => undefined);
  try {
    const manifest = JSON.parse(text ?? 'null') as { name?: unknown; version?: unknown } | null;
    if (typeof manifest?.name === 'string' && manifest.name.startsWith('@ffmpeg-installer/') && typeof manifest.version === 'string')
      return { version: manifest.version };
  } catch {
    // Not a package's manifest: not the npm build.
  }
  return undefined;
}

/** The ffmpeg in words, for the admin and the log: "ffmpeg 5.1.9 (Debian, /usr/bin/ffmpeg)", "ffmpeg 4.1 (bundled npm build, 2018)". */
export function describeFfmpeg(build: FfmpegBuild): string {
  const details = build.origin === 'npm' ? [answers.videoFfmpegBundled(build.year)] : [build.origin, build.path].filter((part) => part !== null);
  return answers.videoFfmpeg(build.version, details.join(', '));
}

/** Why the admin should replace the ffmpeg in use, and how; null when it gets security fixes from whoever installed it. */
export function ffmpegWarning(build: FfmpegBuild): string | null {
  return build.origin === 'npm' ? answers.videoFfmpegOutdated(build.year) : null;
}
