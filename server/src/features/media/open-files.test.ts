import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenFiles } from './open-files.ts';

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'open-files-'));
  await fs.mkdir(path.join(root, 'videos'));
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

const request = (headers: Record<string, string> = {}, method = 'GET') => ({ method, headers }) as unknown as FastifyRequest;
async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
/** Written as the local storage writes: to another name, then renamed into place. */
async function store(key: string, content: string) {
  const temporary = path.join(root, `${key}.part`);
  await fs.writeFile(temporary, content);
  await fs.rename(temporary, path.join(root, key));
}
/** Lets the streams' close callbacks, and the descriptors' closing, run. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));
const openDescriptors = async () => (await fs.readdir('/proc/self/fd')).length;

describe('createOpenFiles', () => {
  it('reads a range and the whole file through one descriptor, and a replaced file through a new one', async () => {
    const files = createOpenFiles();
    await store('videos/a.mp4', 'hello, world');
    const range = files.read(request({ range: 'bytes=7-' }), root, 'videos/a.mp4', 1024)!;
    expect(range.statusCode).toBe(206);
    expect(range.headers).toMatchObject({ 'Content-Range': 'bytes 7-11/12', 'Content-Length': '5' });
    expect(await text(range.stream)).toBe('world');
    expect(await text(files.read(request(), root, 'videos/a.mp4', 1024)!.stream)).toBe('hello, world');

    await store('videos/a.mp4', 'goodbye');
    expect(await text(files.read(request(), root, 'videos/a.mp4', 1024)!.stream)).toBe('goodbye');
    await fs.rm(path.join(root, 'videos/a.mp4'));
    expect(files.read(request(), root, 'videos/a.mp4', 1024)).toBeUndefined();
    files.closeAll();
  });

  it('leaves to send what is not a plain GET of one satisfiable range', async () => {
    const files = createOpenFiles();
    await store('videos/b.mp4', '0123456789');
    const refused: Record<string, string>[] = [
      { range: 'bytes=0-1,4-5' },
      { range: 'bytes=20-' },
      { range: 'bytes=5-2' },
      { range: 'items=0-1' },
      { 'if-none-match': '"x"' },
      { 'if-range': '"x"' },
    ];
    for (const headers of refused) {
      expect(files.read(request(headers), root, 'videos/b.mp4', 1024), JSON.stringify(headers)).toBeUndefined();
    }
    expect(files.read(request({}, 'HEAD'), root, 'videos/b.mp4', 1024)).toBeUndefined();
    for (const key of ['videos/../b.mp4', 'videos/.hidden', 'videos//b.mp4', 'videos/missing.mp4', 'videos']) {
      expect(files.read(request(), root, key, 1024), key).toBeUndefined();
    }
    files.closeAll();
  });

  it('closes a replaced file once its last reader is done, and every file on closeAll', async () => {
    const files = createOpenFiles();
    await store('videos/c.mp4', 'x'.repeat(100_000));
    const before = await openDescriptors();
    const reading = files.read(request(), root, 'videos/c.mp4', 16)!;
    reading.stream.pause();
    expect(await openDescriptors()).toBe(before + 1);
    await store('videos/c.mp4', 'new');
    expect(await text(files.read(request(), root, 'videos/c.mp4', 1024)!.stream)).toBe('new');
    // The old file stays open for the reader still on it, beside the new one.
    expect(await openDescriptors()).toBe(before + 2);
    expect((await text(reading.stream)).length).toBe(100_000);
    await settled();
    expect(await openDescriptors()).toBe(before + 1);
    files.closeAll();
    await settled();
    expect(await openDescriptors()).toBe(before);
  });

  it('closes files nobody asked for in idleMs', async () => {
    let time = 0;
    const files = createOpenFiles({ idleMs: 40, now: () => time });
    await store('videos/d.mp4', 'idle');
    const before = await openDescriptors();
    expect(await text(files.read(request(), root, 'videos/d.mp4', 1024)!.stream)).toBe('idle');
    expect(await openDescriptors()).toBe(before + 1);
    time += 40;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await openDescriptors()).toBe(before);
    files.closeAll();
  });
});
