import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Lecture } from '@lms/contract/lectures';
import { findVideoTools, type VideoTools } from '../features/video/ffmpeg.ts';
import { multipart, pngImage } from './http.ts';
import { publishCourseDirectly } from './courses.ts';

/** The ffmpeg the server would use here (PATH, else the npm packages'); tests of the pipeline need one. */
export async function testVideoTools(): Promise<VideoTools> {
  const found = await findVideoTools({});
  if (!found.available) throw new Error(`The video pipeline's tests need ffmpeg: ${found.reason}`);
  return found.tools;
}

/** Makes a test pattern clip (H.264, with a tone unless `audio` is false) at `file`. */
export async function makeClip(
  tools: VideoTools,
  file: string,
  { seconds = 3, width = 640, height = 360, audio = true }: { seconds?: number; width?: number; height?: number; audio?: boolean } = {},
): Promise<string> {
  await promisify(execFile)(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25`],
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'] : []),
    ...['-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
    ...['-movflags', '+faststart', file],
  ]);
  return file;
}

/** A script standing in for ffmpeg that runs the real one, except that it fails (or first waits) when asked to make HLS. */
export async function ffmpegThat(tools: VideoTools, dir: string, onHls: string): Promise<string> {
  const script = path.join(dir, `ffmpeg-${Math.random().toString(36).slice(2)}`);
  await fs.writeFile(script, `#!/bin/sh\ncase " $* " in *" hls "*) echo x >> "${script}.runs"; ${onHls};; esac\nexec "${tools.ffmpeg}" "$@"\n`, {
    mode: 0o755,
  });
  return script;
}
/** How many ladders the script of ffmpegThat was asked to make. */
export const runsOf = async (script: string) => (await fs.readFile(`${script}.runs`, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

type Server = { app: FastifyInstance };

export async function newCourse(t: Server, admin: string): Promise<string> {
  const form = await multipart({
    title: 'Pipeline course',
    description: 'Lectures that go through the video pipeline.',
    category: 'Video',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  await publishCourseDirectly(t.app.ctx, response.json().course._id);
  return response.json().course._id;
}

/** Adds a lecture with `bytes` as its video; answers it as the admin sees it. */
export async function upload(t: Server, admin: string, courseId: string, bytes: Buffer, title = 'Lesson'): Promise<Lecture> {
  const form = await multipart({ title, description: 'A part of the course.', lectures: { bytes, filename: 'lesson.mp4', type: 'video/mp4' } });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/courses/${courseId}`,
    payload: form.payload,
    headers: { ...form.headers, cookie: admin },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().course.lectures.find((lecture: Lecture) => lecture.title === title);
}

export async function lectureAsAdmin(t: Server, admin: string, courseId: string, lectureId: string): Promise<Lecture> {
  const response = await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: admin } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().lectures.find((lecture: Lecture) => lecture._id === lectureId);
}

/** Asks for the lecture until `done` says so (the job runs in the background), for up to a minute. */
export async function until(read: () => Promise<Lecture>, done: (lecture: Lecture) => boolean): Promise<Lecture> {
  const seen: string[] = [];
  for (let tries = 0; tries < 240; tries++) {
    const lecture = await read();
    seen.push(lecture.replacement ? `replacement ${lecture.replacement.state}` : lecture.processing.state);
    if (done(lecture)) return lecture;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`never reached the state; saw ${[...new Set(seen)].join(' → ')}`);
}
export const settled = (lecture: Lecture) => lecture.processing.state === 'ready' || lecture.processing.state === 'failed';
