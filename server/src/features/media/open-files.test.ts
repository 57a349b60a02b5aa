import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenFiles, type OpenFile } from './open-files.ts';

let folder: string;
let clock: number;
const now = () => clock;

beforeEach(async () => {
  folder = await fsp.mkdtemp(path.join(os.tmpdir(), 'open-files-'));
  clock = 1_000_000;
});
afterEach(() => fsp.rm(folder, { recursive: true, force: true }));

async function write(name: string, text: string): Promise<string> {
  const file = path.join(folder, name);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  // As the storage writes: a new file renamed into place.
  await fsp.writeFile(`${file}.part`, text);
  await fsp.rename(`${file}.part`, file);
  return file;
}

const textOf = (open: OpenFile) => {
  const bytes = Buffer.alloc(open.size);
  fs.readSync(open.fd, bytes, 0, open.size, 0);
  return bytes.toString('utf8');
};
/** Whether `fd` is still an open descriptor of this process. */
const isOpen = (fd: number) => {
  try {
    fs.fstatSync(fd);
    return true;
  } catch {
    return false;
  }
};

describe('open files of stored media', () => {
  it('keeps a file open for the next readers, with its size and time', async () => {
    const file = await write('a.ts', 'segment one');
    const files = createOpenFiles({ now });
    const first = (await files.acquire(file))!;
    const second = (await files.acquire(file))!;

    expect(second.fd).toBe(first.fd);
    expect(first.size).toBe(11);
    expect(first.mtime.getTime()).toBe((await fsp.stat(file)).mtime.getTime());
    expect(textOf(second)).toBe('segment one');
    first.release();
    second.release();
    expect(isOpen(first.fd)).toBe(true);
    files.close();
    expect(isOpen(first.fd)).toBe(false);
  });

  it('has nothing for a missing file or a folder', async () => {
    const files = createOpenFiles({ now });
    expect(await files.acquire(path.join(folder, 'missing.ts'))).toBeUndefined();
    await fsp.mkdir(path.join(folder, 'sub'));
    expect(await files.acquire(path.join(folder, 'sub'))).toBeUndefined();
    expect(files.size).toBe(0);
  });

  it('hands no later reader a forgotten file, and closes it only once its last reader is done', async () => {
    const file = await write('a.ts', 'old bytes');
    const files = createOpenFiles({ now });
    const reading = (await files.acquire(file))!;

    await fsp.rm(file);
    files.forget(file);
    expect(await files.acquire(file)).toBeUndefined();
    // The read under way still reads what it opened.
    expect(isOpen(reading.fd)).toBe(true);
    expect(textOf(reading)).toBe('old bytes');
    reading.release();
    expect(isOpen(reading.fd)).toBe(false);
  });

  it('forgets every file of a folder', async () => {
    const one = await write('hls/a/0_00000.ts', 'one');
    const two = await write('hls/a/0_00001.ts', 'two');
    const other = await write('hls/ab/0_00000.ts', 'other');
    const files = createOpenFiles({ now });
    for (const file of [one, two, other]) (await files.acquire(file))!.release();

    files.forgetFolder(path.join(folder, 'hls/a'));
    expect(files.size).toBe(1);
    expect(textOf((await files.acquire(other))!)).toBe('other');
  });

  it('notices a file replaced or removed behind its back once the last check is CHECK_MS old', async () => {
    const file = await write('a.ts', 'first');
    const files = createOpenFiles({ now, checkMs: 1000 });
    const first = (await files.acquire(file))!;
    first.release();

    await write('a.ts', 'second, longer');
    clock += 999;
    const stillFirst = (await files.acquire(file))!;
    expect(textOf(stillFirst)).toBe('first');
    stillFirst.release();
    clock += 1;
    const second = (await files.acquire(file))!;
    expect(textOf(second)).toBe('second, longer');
    expect(second.size).toBe(14);
    expect(files.size).toBe(1);
    second.release();

    await fsp.rm(file);
    clock += 1000;
    expect(await files.acquire(file)).toBeUndefined();
    expect(files.size).toBe(0);
  });

  it('keeps a file checked unchanged without opening it again', async () => {
    const file = await write('a.ts', 'same');
    const files = createOpenFiles({ now, checkMs: 1000 });
    const first = (await files.acquire(file))!;
    clock += 5000;
    const again = (await files.acquire(file))!;
    expect(again.fd).toBe(first.fd);
  });

  it('keeps nothing an open under way when the file was forgotten meanwhile', async () => {
    const file = await write('a.ts', 'removed');
    const files = createOpenFiles({ now });
    const opening = files.acquire(file);
    files.forget(file);
    const got = await opening;
    expect(got).toBeUndefined();
    expect(files.size).toBe(0);
  });

  it('shares one open between the readers who ask at once', async () => {
    const file = await write('a.ts', 'shared');
    const files = createOpenFiles({ now });
    const [one, two] = await Promise.all([files.acquire(file), files.acquire(file)]);
    expect(one!.fd).toBe(two!.fd);
    expect(files.size).toBe(1);
  });

  it('closes the least recently used file past the limit', async () => {
    const names = ['a.ts', 'b.ts', 'c.ts'];
    const paths = await Promise.all(names.map((name) => write(name, name)));
    const files = createOpenFiles({ now, maxOpen: 2 });
    const a = (await files.acquire(paths[0]!))!;
    a.release();
    (await files.acquire(paths[1]!))!.release();
    (await files.acquire(paths[0]!))!.release();
    (await files.acquire(paths[2]!))!.release();

    expect(files.size).toBe(2);
    // b was the least recently used; a was asked for again.
    expect((await files.acquire(paths[0]!))!.fd).toBe(a.fd);
    expect(isOpen(a.fd)).toBe(true);
  });

  it('has nothing once closed', async () => {
    const file = await write('a.ts', 'bytes');
    const files = createOpenFiles({ now });
    files.close();
    expect(await files.acquire(file)).toBeUndefined();
  });
});
