import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { multipart, signUp, signUpAdmin } from '../../test/http.ts';
import { beside, lectureWithLadder, MASTER } from '../../test/ladder.ts';
import { startTestS3 } from '../../test/s3.ts';
import { testVideoTools } from '../../test/video.ts';
import { readCaptionName } from '../media/hls-urls.ts';
import { DEFAULT_FIRST_PTS, firstVideoPts, lowestVariant, withSubtitles, withTimestampMap } from '../media/hls-subtitles.ts';
import { hlsFileKey } from '../media/storage.ts';

const run = promisify(execFile);

const ENGLISH = `WEBVTT

1
00:00:01.000 --> 00:00:04.000
Every entry has two sides.
`;
const HINDI = `1
00:00:02,000 --> 00:00:03,000
दो पक्ष
`;

/** An MPEG-TS packet: sync byte, PID, payload-unit start, optional adaptation field, payload padded to 188 bytes. */
function tsPacket({ pid, start, payload, adaptation = 0 }: { pid: number; start: boolean; payload: number[]; adaptation?: number }): Buffer {
  const packet = Buffer.alloc(188, 0xff);
  packet[0] = 0x47;
  packet[1] = (start ? 0x40 : 0) | ((pid >> 8) & 0x1f);
  packet[2] = pid & 0xff;
  packet[3] = (adaptation > 0 ? 0x30 : 0x10) | 0;
  let at = 4;
  if (adaptation > 0) {
    packet[4] = adaptation;
    packet[5] = 0;
    at += 1 + adaptation;
  }
  Buffer.from(payload).copy(packet, at);
  return packet;
}
/** A PES header with a PTS, as MPEG-2 systems writes 33 bits in five bytes. */
function pesWithPts(streamId: number, pts: number): number[] {
  const high = Math.floor(pts / 2 ** 30) & 0x07;
  const low = pts % 2 ** 30;
  return [
    0,
    0,
    1,
    streamId,
    0,
    0,
    0x80,
    0x80,
    5,
    0x21 | (high << 1),
    (low >> 22) & 0xff,
    (((low >> 15) & 0x7f) << 1) | 1,
    (low >> 7) & 0xff,
    ((low & 0x7f) << 1) | 1,
  ];
}

describe('reading an HLS ladder for its captions', () => {
  it('finds the first video timestamp past the tables, an audio packet and an adaptation field', () => {
    const pts = 2 ** 32 + 123_456; // past 32 bits: read without 32-bit shifts
    const segment = Buffer.concat([
      tsPacket({ pid: 0, start: true, payload: [0, 0, 0xb0] }),
      tsPacket({ pid: 0x100, start: true, payload: pesWithPts(0xc0, 9000) }),
      tsPacket({ pid: 0x101, start: false, payload: [1, 2, 3] }),
      tsPacket({ pid: 0x101, start: true, adaptation: 7, payload: pesWithPts(0xe0, pts) }),
    ]);
    expect(firstVideoPts(segment)).toBe(pts);
    expect(firstVideoPts(segment.subarray(0, 188 * 3))).toBeUndefined();
    expect(firstVideoPts(Buffer.from('not a transport stream at all'.repeat(20)))).toBeUndefined();
  });

  it('reads the first PTS of a segment ffmpeg wrote, as ffprobe does', async () => {
    const tools = await testVideoTools();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'captions-ts-'));
    try {
      const file = path.join(dir, 'clip.ts');
      await run(tools.ffmpeg, [
        ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
        ...['-t', '1', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-f', 'mpegts', file],
      ]);
      const probed = await run(tools.ffprobe, [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts', '-read_intervals', '%+#1', '-of', 'csv=p=0', file],
      ]);
      const expected = Number.parseInt(probed.stdout.trim(), 10);
      expect(expected).toBeGreaterThan(0);
      expect(firstVideoPts((await fs.readFile(file)).subarray(0, 32 * 1024))).toBe(expected);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('adds a SUBTITLES group to a master playlist, with no quote or line break of a label reaching it', () => {
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000\n0.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=300000\n1.m3u8\n';
    expect(withSubtitles(master, [])).toBe(master);
    expect(withSubtitles(master, [{ language: 'en', label: 'English "CC"\nline', version: 2 }])).toBe(
      [
        '#EXTM3U',
        `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English 'CC' line",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="captions-en.m3u8"`,
        '#EXT-X-STREAM-INF:BANDWIDTH=900000,SUBTITLES="subs"',
        '0.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=300000,SUBTITLES="subs"',
        '1.m3u8',
        '',
      ].join('\n'),
    );
    expect(lowestVariant(master)).toBe('1.m3u8');
    expect(withTimestampMap('WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nHi\n', 126000)).toBe(
      'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n1\n00:00:01.000 --> 00:00:02.000\nHi\n',
    );
  });

  it('names caption renditions by canonical language tags only', () => {
    expect(readCaptionName('captions-en.m3u8')).toEqual({ language: 'en' });
    expect(readCaptionName('captions-pt-BR-v12.vtt')).toEqual({ language: 'pt-BR', version: 12 });
    for (const name of [
      'captions-EN.m3u8',
      'captions-pt-br.m3u8',
      'captions-en-v0.vtt',
      'captions-en.vtt',
      'captions-../x.m3u8',
      'captions-e.m3u8',
      'master.m3u8',
    ])
      expect(readCaptionName(name), name).toBeUndefined();
  });
});

describe.each(['local', 's3'] as const)('a ladder’s captions as HLS subtitles, %s storage', (kind) => {
  let s3: Awaited<ReturnType<typeof startTestS3>> | undefined;
  let t: TestApp;
  let admin: { id: string; cookie: string };
  let subscriber: { id: string; cookie: string };

  beforeAll(async () => {
    if (kind === 's3') s3 = await startTestS3();
    t = await createTestApp({ env: s3?.env ?? {} });
    const signedUp = await signUpAdmin(t.app);
    admin = { id: signedUp.user._id, cookie: signedUp.cookie };
    const paying = await signUp(t.app);
    await t.app.ctx.db
      .update(users)
      .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
      .where(eq(users.id, paying.user._id));
    subscriber = { id: paying.user._id, cookie: paying.cookie };
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  async function addCaptions(ladder: { courseId: string; lectureId: string }, file: string, language: string, label: string) {
    const form = await multipart({ language, label, captions: { bytes: file, filename: 'c.vtt' } });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/courses/${ladder.courseId}/lectures/${ladder.lectureId}/captions`,
      ...form,
      headers: { ...form.headers, cookie: admin.cookie },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().caption as { _id: string };
  }
  const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} });

  it('offers each language in the master playlist, and serves its playlist and its file with the ladder’s timestamp map', async () => {
    const ladder = await lectureWithLadder(t, admin.cookie);
    // The first segment as ffmpeg's muxer starts one: the tables, then video with its first timestamp.
    const pts = 133_200;
    await t.app.ctx.media.put(
      hlsFileKey(ladder.folder, '0_00000.ts'),
      Buffer.concat([tsPacket({ pid: 0, start: true, payload: [0] }), tsPacket({ pid: 0x100, start: true, payload: pesWithPts(0xe0, pts) })]),
      'video/mp2t',
    );
    await t.app.inject({ method: 'POST', url: '/api/v1/playback', payload: { lectureId: ladder.lectureId }, headers: { cookie: subscriber.cookie } });
    const master = (await get(`/api/v1/courses/${ladder.courseId}`, subscriber.cookie)).json().lectures[0].hls_url as string;

    const before = await get(master, subscriber.cookie);
    expect(before.body).toBe(MASTER);
    expect(before.headers['cache-control']).toBe('private, no-store');

    await addCaptions(ladder, ENGLISH, 'en', 'English "CC"');
    const hindi = await addCaptions(ladder, HINDI, 'hi', 'हिन्दी');
    const after = await get(master, subscriber.cookie);
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(after.headers['cache-control']).toBe('private, no-store');
    expect(after.body).toBe(
      [
        '#EXTM3U',
        `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English 'CC'",LANGUAGE="en",DEFAULT=NO,AUTOSELECT=YES,URI="captions-en.m3u8"`,
        `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="हिन्दी",LANGUAGE="hi",DEFAULT=NO,AUTOSELECT=YES,URI="captions-hi.m3u8"`,
        '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,SUBTITLES="subs"',
        '0.m3u8',
        '',
      ].join('\n'),
    );

    const playlist = await get(beside(master, 'captions-hi.m3u8'), subscriber.cookie);
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers['cache-control']).toBe('private, no-store');
    // The fake ladder's video has no measured length: its rendition playlist's 6 + 2 seconds.
    expect(playlist.body).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:8.000,\ncaptions-hi-v1.vtt\n#EXT-X-ENDLIST\n',
    );
    const vtt = await get(beside(master, 'captions-hi-v1.vtt'), subscriber.cookie);
    expect(vtt.statusCode).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(vtt.body).toBe(`WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:${pts},LOCAL:00:00:00.000\n\n1\n00:00:02.000 --> 00:00:03.000\nदो पक्ष\n`);

    // A new version is a new name; the old one is gone, as is a language the lecture has not.
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/courses/${ladder.courseId}/lectures/${ladder.lectureId}/captions/${hindi._id}/cues`,
      payload: { cues: [{ start: 1, end: 2, text: 'नया' }] },
      headers: { cookie: admin.cookie },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get(beside(master, 'captions-hi.m3u8'), subscriber.cookie)).body).toContain('\ncaptions-hi-v2.vtt\n');
    expect((await get(beside(master, 'captions-hi-v2.vtt'), subscriber.cookie)).body).toContain('नया');
    for (const gone of ['captions-hi-v1.vtt', 'captions-fr.m3u8', 'captions-fr-v1.vtt']) {
      const response = await get(beside(master, gone), subscriber.cookie);
      expect(response.statusCode, gone).toBe(404);
      expect(response.json()).toEqual({ success: false, message: answers.notFound });
    }

    // The ladder's own rules hold for its captions: a visitor, or a learner who may not watch, gets nothing.
    expect((await get(beside(master, 'captions-en.m3u8'))).statusCode).toBe(403);
    const learner = await signUp(t.app);
    expect((await get(beside(master, 'captions-en-v1.vtt'), learner.cookie)).statusCode).toBe(403);
  });

  it('serves a free preview’s subtitles to anyone, with the default timestamp map when the segment says none', async () => {
    const ladder = await lectureWithLadder(t, admin.cookie, { preview: true });
    await addCaptions(ladder, ENGLISH, 'en', 'English');
    const master = (await get(`/api/v1/courses/${ladder.courseId}/curriculum`)).json().lectures[0].hls_url as string;
    expect((await get(master)).body).toContain('URI="captions-en.m3u8"');
    const vtt = await get(beside(master, 'captions-en-v1.vtt'));
    expect(vtt.statusCode).toBe(200);
    // The test ladder's segments are random bytes, not MPEG-TS.
    expect(vtt.body.split('\n').slice(0, 2)).toEqual(['WEBVTT', `X-TIMESTAMP-MAP=MPEGTS:${DEFAULT_FIRST_PTS},LOCAL:00:00:00.000`]);
    // And the caption file's own link, for `<track>` and the transcript, from the bucket or the disk.
    const listed = (await get(`/api/v1/courses/${ladder.courseId}/lectures/${ladder.lectureId}/captions`)).json();
    expect((await get(listed.captions[0].url)).body).toBe(`WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nEvery entry has two sides.\n`);
  });
});
