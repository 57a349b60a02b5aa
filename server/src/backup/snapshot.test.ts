import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite } from '../db/client.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test/app.ts';
import { removeSnapshot, takeSnapshot } from './snapshot.ts';

const hex = (digit: string) => digit.repeat(32);

// PGlite in a folder of its own: nothing here depends on the test database.
describe.skipIf(testDatabaseKind === 'postgres')('a snapshot of a running embedded database', () => {
  let dataDir: string;
  let pglite: PGlite;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'lms-snapshot-'));
    pglite = await createPglite({ dataDir: path.join(dataDir, 'db') });
    await pglite.exec('create table ledger (id serial primary key, entry text not null)');
    await pglite.exec(`insert into ledger (entry) select 'committed ' || n from generate_series(1, 1000) n`);
    const media = path.join(dataDir, 'media');
    await fs.mkdir(path.join(media, 'videos'), { recursive: true });
    await fs.mkdir(path.join(media, 'hls', hex('a')), { recursive: true });
    await fs.writeFile(path.join(media, 'videos', `${hex('1')}.mp4`), 'first video');
    await fs.writeFile(path.join(media, 'videos', `${hex('2')}.mp4`), 'second video');
    for (const name of ['master.m3u8', '0.m3u8', '0_00000.ts', '0_00001.ts']) await fs.writeFile(path.join(media, 'hls', hex('a'), name), name);
    // An upload in progress, and something another program left: neither is media.
    await fs.writeFile(path.join(media, 'videos', `${hex('3')}.mp4.0badf00d.part`), 'half an upload');
    await fs.writeFile(path.join(media, 'videos', 'notes.txt'), 'not ours');
    await fs.writeFile(path.join(dataDir, 'session-secret'), 'the secret');
  });
  afterAll(async () => {
    await pglite?.close();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('keeps what was committed before it, not a transaction in flight, and every media file, also one stored just before or deleted after', async () => {
    let finish!: () => void;
    const inFlight = pglite.transaction(async (tx) => {
      await tx.query(`insert into ledger (entry) values ('in flight')`);
      await new Promise<void>((resolve) => (finish = resolve));
      await tx.query(`insert into ledger (entry) values ('in flight, second')`);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const snapshot = await takeSnapshot(
      dataDir,
      (work) =>
        pglite.runExclusive(async () => {
          // The transaction goes on now and would commit at once: it must wait until the copy is made.
          finish();
          await new Promise((resolve) => setTimeout(resolve, 100));
          // Since the media were first linked: a video stored (its row is in the copy), and one deleted (its row is not).
          await fs.writeFile(path.join(dataDir, 'media', 'videos', `${hex('4')}.mp4`), 'fourth video');
          await fs.rm(path.join(dataDir, 'media', 'videos', `${hex('2')}.mp4`));
          return work();
        }),
      'running server',
    );
    try {
      await inFlight;
      // A lecture deleted right after: its file is still in the snapshot.
      await fs.rm(path.join(dataDir, 'media', 'videos', `${hex('1')}.mp4`));

      const hls = ['master.m3u8', '0.m3u8', '0_00000.ts', '0_00001.ts'];
      expect(snapshot.manifest).toMatchObject({ source: 'running server', postgres: '18', media: { files: 7 }, kept: ['session-secret'] });
      expect(snapshot.manifest.media.bytes).toBe(['first video', 'second video', 'fourth video', ...hls].join('').length);
      const media = await fs.readdir(path.join(snapshot.folder, 'media'), { recursive: true });
      // The deleted second video is there too, named by no row: harmless, and swept after a restore.
      expect(media.sort()).toEqual(
        [
          'videos',
          ...['1', '2', '4'].map((digit) => `videos/${hex(digit)}.mp4`),
          'hls',
          `hls/${hex('a')}`,
          ...hls.map((name) => `hls/${hex('a')}/${name}`),
        ].sort(),
      );
      expect(await fs.readFile(path.join(snapshot.folder, 'kept', 'session-secret'), 'utf8')).toBe('the secret');

      // The copy opens (crash recovery) with the rows committed before it, without the transaction in flight then.
      const copy = await createPglite({ dataDir: path.join(snapshot.folder, 'db') });
      try {
        const { rows } = await copy.query<{ entries: number; inFlight: number }>(
          `select count(*)::int as entries, count(*) filter (where entry like 'in flight%')::int as "inFlight" from ledger`,
        );
        expect(rows[0]).toEqual({ entries: 1000, inFlight: 0 });
      } finally {
        await copy.close();
      }
      expect((await pglite.query<{ count: number }>('select count(*)::int from ledger')).rows[0]!.count).toBe(1002);
    } finally {
      await removeSnapshot(snapshot.folder);
    }
  }, 60_000);
});
