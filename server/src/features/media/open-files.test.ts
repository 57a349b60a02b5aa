import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECK_MS, createOpenFiles, type OpenFile } from './open-files.ts';

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

  describe('contents kept in memory', () => {
    /** Reads the file whole and offers it to be kept, as the media routes do for a small file. */
    const readAndKeep = (open: OpenFile) => {
      if (open.hasRoom()) open.keep(Buffer.from(textOf(open)));
      open.release();
    };

    it('hands the next readers the contents read once, and lets them go with their file', async () => {
      const file = await write('a.ts', 'segment one');
      const files = createOpenFiles({ now });
      const first = (await files.acquire(file))!;
      expect(first.contents).toBeUndefined();
      readAndKeep(first);

      const next = (await files.acquire(file))!;
      expect(next.contents?.toString('utf8')).toBe('segment one');
      expect(next.hasRoom()).toBe(false);
      next.release();
      expect(files.keptBytes).toBe(11);

      files.forget(file);
      expect(files.keptBytes).toBe(0);
    });

    it('never hands on the contents of a file replaced behind its back', async () => {
      const file = await write('a.ts', 'old bytes');
      const files = createOpenFiles({ now });
      readAndKeep((await files.acquire(file))!);
      await write('a.ts', 'new bytes!');
      clock += CHECK_MS;

      const after = (await files.acquire(file))!;
      expect(after.contents).toBeUndefined();
      expect(textOf(after)).toBe('new bytes!');
      after.release();
      expect(files.keptBytes).toBe(0);
    });

    it('keeps no contents that are not the whole file', async () => {
      const file = await write('a.ts', 'segment one');
      const files = createOpenFiles({ now });
      const open = (await files.acquire(file))!;
      open.keep(Buffer.from('segment'));
      open.release();
      expect((await files.acquire(file))!.contents).toBeUndefined();
      expect(files.keptBytes).toBe(0);
    });

    it('keeps the first files while they are asked for, and gives the room of idle ones to others', async () => {
      const [a, b, c] = await Promise.all(['a.ts', 'b.ts', 'c.ts'].map((name) => write(name, `${name} has ten`)));
      const files = createOpenFiles({ now, maxKeptBytes: 25, keptIdleMs: 60_000 });
      readAndKeep((await files.acquire(a!))!);
      readAndKeep((await files.acquire(b!))!);
      // No room for c while a and b are being watched: it is read for each of its requests.
      clock += 30_000;
      (await files.acquire(a!))!.release();
      const first = (await files.acquire(c!))!;
      expect(first.hasRoom()).toBe(false);
      first.release();
      expect(files.keptBytes).toBe(24);

      // b has not been asked for within a minute: c takes its room; a, asked for since, stays.
      clock += 31_000;
      readAndKeep((await files.acquire(c!))!);
      expect((await files.acquire(c!))!.contents?.toString('utf8')).toBe('c.ts has ten');
      expect((await files.acquire(a!))!.contents).toBeDefined();
      expect((await files.acquire(b!))!.contents).toBeUndefined();
      expect(files.keptBytes).toBe(24);
    });

    it('lets every kept contents go on close', async () => {
      const file = await write('a.ts', 'segment one');
      const files = createOpenFiles({ now });
      readAndKeep((await files.acquire(file))!);
      files.close();
      expect(files.keptBytes).toBe(0);
    });
  });
});
