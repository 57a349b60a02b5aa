import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { DEFAULT_PROTECTION, WATERMARK_ALPHABET, type ProtectionSettings } from '@lms/contract/protection';
import { courses, lectures, playbacks, sessions, streamRefusals, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { signUp, signUpAdmin } from '../../test/http.ts';
import { TRACES_PER_MINUTE } from '../../rate-limit.ts';

const HOUR = 3600_000;
const random = () => randomBytes(6).toString('hex');
/** A code no other test made: eight characters of the alphabet. */
const newCode = () => [...randomBytes(8)].map((byte) => WATERMARK_ALPHABET[byte % WATERMARK_ALPHABET.length]).join('');

let t: TestApp;
let admin: string;
let learner: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  learner = (await signUp(t.app)).cookie;
});
afterAll(() => t?.close());

async function insertUser({ suspended = false } = {}) {
  const [user] = await t.database.db
    .insert(users)
    .values({ fullName: `Viewer ${random()}`, email: `viewer.${random()}@example.com`, passwordHash: 'not-a-hash', suspendedAt: suspended ? new Date() : null })
    .returning();
  return user!;
}

async function insertLecture(title = `Lecture ${random()}`) {
  const [course] = await t.database.db
    .insert(courses)
    .values({ title: `Course ${random()}`, description: 'About it', category: 'Misc', createdBy: 'Someone', thumbnailKey: `thumbnails/${random()}.webp` })
    .returning();
  const [lecture] = await t.database.db
    .insert(lectures)
    .values({ courseId: course!.id, rank: 'm', title, description: 'It', videoKey: `videos/${random()}.mp4`, videoType: 'video/mp4', videoBytes: 1 })
    .returning();
  return { course: course!, lecture: lecture! };
}

async function insertPlayback(
  userId: string,
  {
    code = newCode(),
    lectureId = null,
    startedAt = new Date(),
    addressBlock = '203.0.113.0/24',
    device = 'Chrome on Windows',
  }: Partial<{ code: string; lectureId: string | null; startedAt: Date; addressBlock: string; device: string }> = {},
) {
  const lastBeatAt = new Date(startedAt.getTime() + 60_000);
  const [row] = await t.database.db
    .insert(playbacks)
    .values({ code, userId, sessionId: randomUUID(), lectureId, addressBlock, device, startedAt, lastBeatAt, endsAt: new Date(lastBeatAt.getTime() + 75_000) })
    .returning();
  return row!;
}

async function insertSession(
  userId: string,
  { expiresAt = new Date(Date.now() + 24 * HOUR), lastSeenAt = new Date(), addressBlock = null as string | null } = {},
) {
  await t.database.db.insert(sessions).values({ tokenHash: random() + random(), userId, expiresAt, lastSeenAt, addressBlock });
}

async function insertRefusals(userId: string, count: number, { at = new Date(), addressBlock = '198.51.100.0/24' } = {}) {
  await t.database.db.insert(streamRefusals).values(Array.from({ length: count }, () => ({ userId, addressBlock, at })));
}

describe('GET /api/v1/admin/trace', () => {
  const trace = (code: string, cookie = admin) =>
    t.app.inject({ url: `/api/v1/admin/trace?code=${encodeURIComponent(code)}`, headers: cookie ? { cookie } : {} });

  it('names the account, lecture, course, times, place and device of a whole code', async () => {
    const viewer = await insertUser();
    await insertSession(viewer.id);
    await insertSession(viewer.id, { expiresAt: new Date(Date.now() - HOUR) });
    const { course, lecture } = await insertLecture('Closures in depth');
    const startedAt = new Date(Date.now() - 2 * HOUR);
    const playback = await insertPlayback(viewer.id, { lectureId: lecture.id, startedAt, addressBlock: '203.0.113.0/24', device: 'Firefox on Linux' });

    const response = await trace(playback.code);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: answers.traceFound(1),
      playbacks: [
        {
          code: playback.code,
          account: { _id: viewer.id, fullName: viewer.fullName, email: viewer.email, role: 'USER', suspended: false, activeSessions: 1 },
          lecture: { _id: lecture.id, title: 'Closures in depth', courseId: course.id, courseTitle: course.title },
          startedAt: startedAt.toISOString(),
          lastSeenAt: playback.lastBeatAt.toISOString(),
          place: '203.0.113.0/24',
          device: 'Firefox on Linux',
        },
      ],
    });
  });

  it('finds a code from a part of its middle, the newest playback first', async () => {
    const viewer = await insertUser({ suspended: true });
    const older = await insertPlayback(viewer.id, { code: 'X9QM7RZA', startedAt: new Date(Date.now() - 5 * HOUR) });
    const newer = await insertPlayback(viewer.id, { code: 'BQM7RZ3C', startedAt: new Date(Date.now() - HOUR) });
    await insertPlayback(viewer.id, { code: 'QM7XRZ3C' });

    const found = (await trace('QM7RZ')).json();
    expect(found.message).toBe(answers.traceFound(2));
    expect(found.playbacks.map((p: { code: string }) => p.code)).toEqual([newer.code, older.code]);
    expect(found.playbacks[0].account).toMatchObject({ _id: viewer.id, suspended: true, activeSessions: 0 });
  });

  it('reads the code as a person types it: lower case, a dash, O for 0 and I or L for 1', async () => {
    const viewer = await insertUser();
    const playback = await insertPlayback(viewer.id, { code: '40A1C8NW' });

    for (const typed of ['4oa1-c8nw', ' 40AI C8NW ', '4oal-']) {
      const response = await trace(typed);
      expect(response.statusCode, typed).toBe(200);
      expect(response.json().playbacks.map((p: { code: string }) => p.code)).toEqual([playback.code]);
    }
  });

  it('refuses fewer than 4 characters, or characters no code has, in the same words', async () => {
    for (const typed of ['4OA', '--a-b-', '', 'ABCD!', 'ABCDEFGHJ', 'x'.repeat(41)]) {
      const response = await trace(typed);
      expect(response.statusCode, typed).toBe(400);
      expect(response.json()).toEqual({ success: false, message: answers.traceCodeShort });
    }
    const missing = await t.app.inject({ url: '/api/v1/admin/trace', headers: { cookie: admin } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(answers.traceCodeShort);
  });

  it('answers no playback for a code nobody was shown', async () => {
    const response = await trace('ZZZZZZZZ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: answers.traceFound(0), playbacks: [] });
  });

  it('still names the account once the lecture was deleted', async () => {
    const viewer = await insertUser();
    const { lecture } = await insertLecture();
    const playback = await insertPlayback(viewer.id, { lectureId: lecture.id });
    await t.database.db.delete(lectures).where(eq(lectures.id, lecture.id));

    const [found] = (await trace(playback.code)).json().playbacks;
    expect(found).toMatchObject({ code: playback.code, lecture: null, account: { _id: viewer.id } });
  });

  it('lists at most 20 playbacks', async () => {
    const viewer = await insertUser();
    // Codes sharing a run of four no other test uses.
    await Promise.all(Array.from({ length: 22 }, (_, i) => insertPlayback(viewer.id, { code: `WV8K${WATERMARK_ALPHABET[i]}${newCode().slice(0, 3)}` })));
    expect((await trace('WV8K')).json().playbacks).toHaveLength(20);
  });

  it('is for administrators only', async () => {
    const viewer = await insertUser();
    const playback = await insertPlayback(viewer.id);
    expect((await trace(playback.code, '')).statusCode).toBe(401);
    const refused = await trace(playback.code, learner);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain(viewer.email);
  });

  it('limits how many traces one administrator runs in a minute', async () => {
    const other = await createTestApp({ database: t.database });
    try {
      const { cookie } = await signUpAdmin(other.app);
      const statuses: number[] = [];
      for (let i = 0; i <= TRACES_PER_MINUTE; i += 1) {
        statuses.push((await other.app.inject({ url: '/api/v1/admin/trace?code=ABCD', headers: { cookie } })).statusCode);
      }
      expect(statuses.slice(0, TRACES_PER_MINUTE).every((status) => status === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      // Another administrator still traces.
      expect((await other.app.inject({ url: '/api/v1/admin/trace?code=ABCD', headers: { cookie: admin } })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/v1/admin/sharing-risk', () => {
  const risk = async (cookie = admin) => {
    const response = await t.app.inject({ url: '/api/v1/admin/sharing-risk', headers: cookie ? { cookie } : {} });
    expect(response.statusCode).toBe(200);
    return response.json() as {
      windowHours: number;
      addressBlocks: number;
      refusals: number;
      accounts: {
        account: { _id: string; email: string; suspended: boolean; activeSessions: number };
        addressBlocks: number;
        refusals: number;
        lastSeenAt: string | null;
      }[];
    };
  };
  const listed = async (...ids: string[]) => (await risk()).accounts.filter((entry) => ids.includes(entry.account._id));
  const blocks = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `192.0.${from + i}.0/24`);

  /** An account seen from `count` blocks: sign-ins, playbacks and refusals together. */
  async function seenFrom(count: number, { at = new Date() } = {}) {
    const viewer = await insertUser();
    const [first, second, ...rest] = blocks(count);
    if (first) await insertSession(viewer.id, { lastSeenAt: at, addressBlock: first });
    if (second) await insertRefusals(viewer.id, 1, { at, addressBlock: second });
    for (const block of rest) await insertPlayback(viewer.id, { startedAt: at, addressBlock: block });
    // The same block again, from every source, counts once.
    if (first) {
      await insertPlayback(viewer.id, { startedAt: at, addressBlock: first });
      await insertRefusals(viewer.id, 1, { at, addressBlock: first });
    }
    return viewer;
  }

  async function saveProtection(change: Partial<ProtectionSettings>) {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings',
      payload: { protection: { ...DEFAULT_PROTECTION, ...change } },
      headers: { cookie: admin },
    });
    expect(response.statusCode).toBe(200);
  }

  it('answers the window and the thresholds of the settings', async () => {
    const { accounts, ...rest } = await risk();
    expect(rest).toEqual({
      success: true,
      message: answers.sharingRiskFetched,
      windowHours: 24,
      addressBlocks: DEFAULT_PROTECTION.riskAddressBlocks,
      refusals: DEFAULT_PROTECTION.riskRefusals,
    });
    expect(Array.isArray(accounts)).toBe(true);
  });

  it('lists an account seen from more address blocks than the threshold, not one seen from exactly as many', async () => {
    const K = DEFAULT_PROTECTION.riskAddressBlocks;
    const at = new Date(Date.now() - HOUR);
    const atThreshold = await seenFrom(K);
    const past = await seenFrom(K + 1, { at });
    await insertSession(past.id);

    expect(await listed(atThreshold.id, past.id)).toEqual([
      {
        account: { _id: past.id, fullName: past.fullName, email: past.email, role: 'USER', suspended: false, activeSessions: 2 },
        addressBlocks: K + 1,
        refusals: 2,
        lastSeenAt: expect.any(String),
      },
    ]);
  });

  it('leaves administrators out: they are not limited, and work from many places', async () => {
    const K = DEFAULT_PROTECTION.riskAddressBlocks;
    const roaming = await seenFrom(K + 3);
    await t.database.db.update(users).set({ role: 'ADMIN' }).where(eq(users.id, roaming.id));
    expect(await listed(roaming.id)).toEqual([]);
  });

  it('lists an account refused more streams than the threshold, from one place', async () => {
    const M = DEFAULT_PROTECTION.riskRefusals;
    const atThreshold = await insertUser();
    const past = await insertUser();
    await insertRefusals(atThreshold.id, M);
    await insertRefusals(past.id, M + 1);

    expect(await listed(atThreshold.id, past.id)).toMatchObject([{ account: { _id: past.id }, addressBlocks: 1, refusals: M + 1 }]);
  });

  it('counts only the last 24 hours', async () => {
    const K = DEFAULT_PROTECTION.riskAddressBlocks;
    const M = DEFAULT_PROTECTION.riskRefusals;
    const old = new Date(Date.now() - 25 * HOUR);
    const viewer = await seenFrom(K + 3, { at: old });
    await insertRefusals(viewer.id, M + 5, { at: old });
    // Two fresh sightings: under both thresholds.
    await insertPlayback(viewer.id, { addressBlock: '233.252.0.0/24' });
    await insertRefusals(viewer.id, 1);

    expect(await listed(viewer.id)).toEqual([]);
  });

  it('puts the worst first', async () => {
    const K = DEFAULT_PROTECTION.riskAddressBlocks;
    const M = DEFAULT_PROTECTION.riskRefusals;
    const slightly = await seenFrom(K + 1);
    const badly = await seenFrom(3 * K);
    const refused = await insertUser();
    await insertRefusals(refused.id, 2 * M);

    expect((await listed(slightly.id, badly.id, refused.id)).map((entry) => entry.account._id)).toEqual([badly.id, refused.id, slightly.id]);
  });

  it('moves with the thresholds in the settings', async () => {
    const viewer = await seenFrom(3);
    const refused = await insertUser();
    await insertRefusals(refused.id, 2);
    expect(await listed(viewer.id, refused.id)).toEqual([]);

    await saveProtection({ riskAddressBlocks: 2, riskRefusals: 1 });
    try {
      const answer = await risk();
      expect(answer).toMatchObject({ addressBlocks: 2, refusals: 1 });
      expect((await listed(viewer.id, refused.id)).map((entry) => entry.account._id).sort()).toEqual([viewer.id, refused.id].sort());
    } finally {
      await saveProtection({});
    }
  });

  it('is for administrators only', async () => {
    expect((await t.app.inject({ url: '/api/v1/admin/sharing-risk' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/admin/sharing-risk', headers: { cookie: learner } })).statusCode).toBe(403);
  });
});
