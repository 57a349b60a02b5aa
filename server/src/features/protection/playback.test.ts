import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { LEASE_SECONDS, WATERMARK_ALPHABET, WATERMARK_CODE_LENGTH } from '@lms/contract/protection';
import { playbacks, sessions, streamRefusals, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { login, sessionCookie, signUp, signUpAdmin } from '../../test/http.ts';
import { beside, lectureWithLadder } from '../../test/ladder.ts';
import { startTestS3 } from '../../test/s3.ts';
import { PLAYBACK_STARTS_PER_MINUTE } from '../../rate-limit.ts';
import { hashToken } from '../auth/sessions.ts';
import { forgetOldPlaybacks, maskEmail, PLAYBACK_HISTORY_DAYS, REFUSAL_HISTORY_DAYS } from './playback.service.ts';

const CHROME_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

type Ladder = Awaited<ReturnType<typeof lectureWithLadder>>;

/** A subscriber, signed in on as many devices as `agents` names, each from its own address. */
async function subscriberOn(t: TestApp, agents: string[]) {
  const account = await signUp(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    .where(eq(users.id, account.user._id));
  const devices: Device[] = [];
  for (const [index, agent] of agents.entries()) {
    const headers = { 'user-agent': agent, 'x-forwarded-for': `203.0.${113 + index}.7` };
    const response = await login(t.app, account.email, account.password, headers);
    expect(response.statusCode).toBe(200);
    devices.push({ cookie: sessionCookie(response), headers });
  }
  return { ...account, devices };
}

/** A signed-in browser: its cookie, and the headers it sends (its User-Agent, its address as the proxy states it). */
interface Device {
  cookie: string;
  headers: Record<string, string>;
}

const start = (t: TestApp, device: Device | string, lectureId: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/playback', payload: { lectureId }, headers: headersOf(device) });
const headersOf = (device: Device | string) => (typeof device === 'string' ? { cookie: device } : { ...device.headers, cookie: device.cookie });
const beat = (t: TestApp, device: Device | string, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/playback/${id}/heartbeat`, headers: headersOf(device) });
const stop = (t: TestApp, device: Device | string, id: string) => t.app.inject({ method: 'DELETE', url: `/api/v1/playback/${id}`, headers: headersOf(device) });
/** The lecture's master playlist as its lecture list gives it to the device's user. */
const masterOf = async (t: TestApp, device: Device | string, ladder: Ladder) =>
  (await t.app.inject({ url: `/api/v1/courses/${ladder.courseId}`, headers: headersOf(device) })).json().lectures[0].hls_url as string;
const segmentStatus = async (t: TestApp, device: Device | string, master: string) =>
  (await t.app.inject({ url: beside(master, '0_00000.ts'), headers: headersOf(device) })).statusCode;

describe('playback leases', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof signUpAdmin>>;
  let ladder: Ladder;

  beforeAll(async () => {
    // Requests say where they come from (X-Forwarded-For), as the proxy in front would, so devices have places.
    t = await createTestApp({ env: { TRUST_PROXY: '1' } });
    admin = await signUpAdmin(t.app);
    ladder = await lectureWithLadder(t, admin.cookie);
  });
  afterAll(() => t?.close());

  it('starts with a watermark: the masked email and a code of its own, and a lease that lapses without heartbeats', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS]);
    const response = await start(t, learner.devices[0]!, ladder.lectureId);
    expect(response.statusCode).toBe(201);
    const { playback } = response.json();
    expect(playback.watermark).toEqual({ text: maskEmail(learner.email), code: expect.any(String), opacity: 30, size: 'medium' });
    expect(playback.watermark.text).toMatch(/^.{2}•••@/);
    expect(playback.watermark.code).toHaveLength(WATERMARK_CODE_LENGTH);
    expect([...playback.watermark.code].every((c) => WATERMARK_ALPHABET.includes(c))).toBe(true);
    expect(playback.heartbeatSeconds).toBe(30);
    const secondsLeft = (Date.parse(playback.endsAt) - Date.now()) / 1000;
    expect(secondsLeft).toBeGreaterThan(LEASE_SECONDS - 5);
    expect(secondsLeft).toBeLessThanOrEqual(LEASE_SECONDS);

    // Kept with the account, the session, the lecture and the address block, for the trace.
    const [row] = await t.app.ctx.db.select().from(playbacks).where(eq(playbacks.id, playback.id));
    const [session] = await t.app.ctx.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(learner.devices[0]!.cookie.split('=')[1]!)));
    expect(row).toMatchObject({
      code: playback.watermark.code,
      userId: learner.user._id,
      sessionId: session!.id,
      lectureId: ladder.lectureId,
      addressBlock: '203.0.113.0/24',
      device: 'Chrome on Windows',
    });
  });

  it('plays on two devices at once; the third is refused with the others named, and plays once it stops one there', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, FIREFOX_ON_LINUX]);
    const [laptop, phone, desktop] = learner.devices as [Device, Device, Device];
    const first = (await start(t, laptop, ladder.lectureId)).json().playback;
    expect((await start(t, phone, ladder.lectureId)).statusCode).toBe(201);
    const master = await masterOf(t, desktop, ladder);

    const refused = await start(t, desktop, ladder.lectureId);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, message: answers.streamLimit(2), limit: 2 });
    const named = refused
      .json()
      .streams.map((stream: { device: string; place: string; lectureTitle: string; thisSession: boolean }) => [
        stream.device,
        stream.place,
        stream.lectureTitle,
        stream.thisSession,
      ]);
    expect(named.sort()).toEqual([
      ['Chrome on Windows', '203.0.113.0/24', 'L', false],
      ['Safari on iOS', '203.0.114.0/24', 'L', false],
    ]);
    // Counted for the sharing-risk list; and no segment for the refused device.
    expect(await t.app.ctx.db.select().from(streamRefusals).where(eq(streamRefusals.userId, learner.user._id))).toHaveLength(1);
    expect(await segmentStatus(t, desktop, master)).toBe(403);
    // The refused device still saves the place its learner reached (the player saves on pause).
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/v1/progress/lectures/${ladder.lectureId}`,
      payload: { position: 42, at: Date.now() },
      headers: headersOf(desktop),
    });
    expect(saved.statusCode).toBe(200);

    // "Stop playback there": the slot is free at once, and the stopped device's segments stop.
    expect((await stop(t, desktop, first.id)).statusCode).toBe(200);
    expect(await segmentStatus(t, laptop, await masterOf(t, laptop, ladder))).toBe(403);
    expect((await start(t, desktop, ladder.lectureId)).statusCode).toBe(201);
    expect(await segmentStatus(t, desktop, master)).toBe(200);
    // The stopped device's next heartbeat says so.
    const ended = await beat(t, laptop, first.id);
    expect(ended.statusCode).toBe(410);
    expect(ended.json()).toEqual({ success: false, message: answers.playbackEnded });
  });

  it('counts a device once: another tab or lecture on a playing device is not another stream', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, FIREFOX_ON_LINUX]);
    const [laptop, phone] = learner.devices as [Device, Device];
    expect((await start(t, laptop, ladder.lectureId)).statusCode).toBe(201);
    expect((await start(t, phone, ladder.lectureId)).statusCode).toBe(201);
    expect((await start(t, laptop, ladder.lectureId)).statusCode).toBe(201);
    expect((await start(t, phone, ladder.lectureId)).statusCode).toBe(201);
    const streams = (await t.app.inject({ url: '/api/v1/playback', headers: headersOf(laptop) })).json();
    expect(streams.limit).toBe(2);
    expect(streams.streams).toHaveLength(2);
    expect(streams.streams.filter((stream: { thisSession: boolean }) => stream.thisSession)).toHaveLength(1);
  });

  it('renews a lease only from the session holding it: another account’s or another device’s heartbeat is 403', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE]);
    const stranger = await subscriberOn(t, [CHROME_ON_WINDOWS]);
    const { id, endsAt } = (await start(t, learner.devices[0]!, ladder.lectureId)).json().playback;
    await t.app.ctx.db
      .update(playbacks)
      .set({ endsAt: sql`now() + interval '10 seconds'` })
      .where(eq(playbacks.id, id));
    const renewed = await beat(t, learner.devices[0]!, id);
    expect(renewed.statusCode).toBe(200);
    expect(Date.parse(renewed.json().endsAt)).toBeGreaterThanOrEqual(Date.parse(endsAt));

    for (const cookie of [stranger.devices[0]!, learner.devices[1]!]) {
      const forged = await beat(t, cookie, id);
      expect(forged.statusCode).toBe(403);
      expect(forged.json()).toEqual({ success: false, message: answers.notAllowed });
    }
    expect((await stop(t, stranger.devices[0]!, id)).statusCode).toBe(403);
    expect((await beat(t, learner.devices[0]!, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(403);
    expect((await beat(t, learner.devices[0]!, 'not-an-id')).statusCode).toBe(400);
  });

  it('lapses without heartbeats: the next heartbeat is 410, the segments stop, and the slot is free', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, FIREFOX_ON_LINUX]);
    const [laptop, phone, desktop] = learner.devices as [Device, Device, Device];
    const lapsing = (await start(t, laptop, ladder.lectureId)).json().playback;
    expect((await start(t, phone, ladder.lectureId)).statusCode).toBe(201);
    // The laptop's connection went a minute ago; its lease ends in a second.
    await t.app.ctx.db
      .update(playbacks)
      .set({ endsAt: sql`now() + interval '1 second'` })
      .where(eq(playbacks.id, lapsing.id));
    t.app.ctx.leases.forgetAll();
    const master = await masterOf(t, laptop, ladder);
    expect(await segmentStatus(t, laptop, master)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await segmentStatus(t, laptop, master)).toBe(403);
    const lapsed = await beat(t, laptop, lapsing.id);
    expect(lapsed.statusCode).toBe(410);
    expect(lapsed.json().message).toBe(answers.playbackLapsed);
    expect((await start(t, desktop, ladder.lectureId)).statusCode).toBe(201);
  });

  it('gives one of two devices starting at once the last place, never both', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE, FIREFOX_ON_LINUX]);
    const [laptop, phone, desktop] = learner.devices as [Device, Device, Device];
    expect((await start(t, laptop, ladder.lectureId)).statusCode).toBe(201);
    const statuses = (await Promise.all([start(t, phone, ladder.lectureId), start(t, desktop, ladder.lectureId)])).map((response) => response.statusCode);
    expect(statuses.sort()).toEqual([201, 409]);
  });

  it('does not limit administrators, and serves them without a lease', async () => {
    const second = sessionCookie(await login(t.app, admin.email, admin.password));
    const third = sessionCookie(await login(t.app, admin.email, admin.password));
    for (const cookie of [admin.cookie, second, third]) expect((await start(t, cookie, ladder.lectureId)).statusCode).toBe(201);
    const fourth = sessionCookie(await login(t.app, admin.email, admin.password));
    expect(await segmentStatus(t, fourth, await masterOf(t, fourth, ladder))).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/playback', headers: { cookie: fourth } })).json().limit).toBeNull();
  });

  it('needs no lease for a free preview', async () => {
    const preview = await lectureWithLadder(t, admin.cookie, { preview: true });
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS]);
    expect(await segmentStatus(t, learner.devices[0]!, await masterOf(t, learner.devices[0]!, preview))).toBe(200);
  });

  it('refuses what the account may not watch, and a lecture that does not exist', async () => {
    const learner = await signUp(t.app);
    const refused = await start(t, learner.cookie, ladder.lectureId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(answers.notAllowed);
    const subscriber = await subscriberOn(t, [CHROME_ON_WINDOWS]);
    const unknown = await start(t, subscriber.devices[0]!, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect((await start(t, subscriber.devices[0]!, 'nope')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/playback', payload: { lectureId: ladder.lectureId } })).statusCode).toBe(401);
  });

  it('throttles a flood of starts from one account', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS]);
    const statuses: number[] = [];
    for (let i = 0; i <= PLAYBACK_STARTS_PER_MINUTE; i++) statuses.push((await start(t, learner.devices[0]!, ladder.lectureId)).statusCode);
    expect(statuses.slice(0, PLAYBACK_STARTS_PER_MINUTE).every((status) => status === 201)).toBe(true);
    const last = await start(t, learner.devices[0]!, ladder.lectureId);
    expect(last.statusCode).toBe(429);
    expect(last.json().message).toBe(answers.tooManyPlaybackStarts);
  });

  it('follows the limit set in the settings', async () => {
    const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE]);
    const saved = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/settings',
      payload: { protection: { maxStreams: 1, maxDevices: 0, watermarkOpacity: 45, watermarkSize: 'large', riskAddressBlocks: 4, riskRefusals: 10 } },
      headers: { cookie: admin.cookie },
    });
    expect(saved.statusCode).toBe(200);
    try {
      const started = await start(t, learner.devices[0]!, ladder.lectureId);
      expect(started.json().playback.watermark).toMatchObject({ opacity: 45, size: 'large' });
      const refused = await start(t, learner.devices[1]!, ladder.lectureId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(answers.streamLimit(1));
    } finally {
      await t.app.inject({ method: 'PATCH', url: '/api/v1/settings', payload: { protection: null }, headers: { cookie: admin.cookie } });
    }
  });
});

describe('history', () => {
  it('keeps a playback a year for the trace, and a refusal a week for the sharing risk, then forgets them', async () => {
    const t = await createTestApp();
    try {
      const learner = await signUp(t.app);
      const [session] = await t.app.ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, learner.user._id));
      const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600 * 1000);
      const playback = (code: string, days: number) => ({
        code,
        userId: learner.user._id,
        sessionId: session!.id,
        addressBlock: '203.0.113.0/24',
        device: 'Chrome on Windows',
        startedAt: daysAgo(days),
        lastBeatAt: daysAgo(days),
        endsAt: daysAgo(days),
      });
      await t.app.ctx.db.insert(playbacks).values([playback('OLDOLD00', PLAYBACK_HISTORY_DAYS + 2), playback('KEPTKEPT', PLAYBACK_HISTORY_DAYS - 1)]);
      await t.app.ctx.db.insert(streamRefusals).values([
        { userId: learner.user._id, addressBlock: '203.0.113.0/24', at: daysAgo(REFUSAL_HISTORY_DAYS + 1) },
        { userId: learner.user._id, addressBlock: '203.0.114.0/24', at: daysAgo(1) },
      ]);
      await forgetOldPlaybacks(t.app.ctx);
      expect((await t.app.ctx.db.select({ code: playbacks.code }).from(playbacks)).map((row) => row.code)).toEqual(['KEPTKEPT']);
      expect((await t.app.ctx.db.select({ block: streamRefusals.addressBlock }).from(streamRefusals)).map((row) => row.block)).toEqual(['203.0.114.0/24']);
    } finally {
      await t.close();
    }
  });
});

describe('originals once the ladder plays', () => {
  it('gives learners the ladder only, the upload answering them 403; administrators keep the original', async () => {
    const t = await createTestApp();
    try {
      const admin = await signUpAdmin(t.app);
      const ladder = await lectureWithLadder(t, admin.cookie);
      const learner = await subscriberOn(t, [CHROME_ON_WINDOWS]);
      const cookie = learner.devices[0]!.cookie;
      expect((await start(t, cookie, ladder.lectureId)).statusCode).toBe(201);
      const [lecture] = (await t.app.inject({ url: `/api/v1/courses/${ladder.courseId}`, headers: { cookie } })).json().lectures;
      expect(lecture.secure_url).toBe(lecture.hls_url);
      const [asAdmin] = (await t.app.inject({ url: `/api/v1/courses/${ladder.courseId}`, headers: { cookie: admin.cookie } })).json().lectures;
      expect(asAdmin.secure_url).toContain('/media/private/videos/');
      expect((await t.app.inject({ url: asAdmin.secure_url, headers: { cookie: admin.cookie, range: 'bytes=0-9' } })).statusCode).toBe(206);

      // The learner's own link to the upload, made before the ladder was ready, stops too.
      await t.app.ctx.db.update(playbacks).set({ stoppedAt: null });
      const upload = asAdmin.secure_url.replace(/viewer=[^&]+/, `viewer=${learner.user._id}`);
      expect((await t.app.inject({ url: upload, headers: { cookie, range: 'bytes=0-9' } })).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });
});

describe('a second instance on the same database', () => {
  it('stops serving a device at once when another instance stops its lease', async () => {
    const t = await createTestApp();
    // The same media folder too, as instances share a disk or a bucket.
    const other = await createTestApp({ database: t.database, env: { DATA_DIR: t.dataDir } });
    try {
      const admin = await signUpAdmin(t.app);
      const ladder = await lectureWithLadder(t, admin.cookie);
      const learner = await subscriberOn(t, [CHROME_ON_WINDOWS, SAFARI_ON_IPHONE]);
      const [laptop, phone] = learner.devices as [Device, Device];
      const playing = (await start(t, laptop, ladder.lectureId)).json().playback;
      const master = await masterOf(t, laptop, ladder);
      // Both instances have the lease in hand.
      expect(await segmentStatus(t, laptop, master)).toBe(200);
      expect(await segmentStatus(other, laptop, master)).toBe(200);
      // Stopped from the phone, through the other instance.
      expect((await stop(other, phone, playing.id)).statusCode).toBe(200);
      expect(await segmentStatus(t, laptop, master)).toBe(403);
      expect(await segmentStatus(other, laptop, master)).toBe(403);
    } finally {
      await other.close();
      await t.close();
    }
  });

  it('keeps a lease made by an instance that is gone, until it lapses by time', async () => {
    const t = await createTestApp();
    const crashing = await createTestApp({ database: t.database, env: { DATA_DIR: t.dataDir } });
    try {
      const admin = await signUpAdmin(t.app);
      const ladder = await lectureWithLadder(t, admin.cookie);
      const learner = await subscriberOn(t, [CHROME_ON_WINDOWS]);
      const cookie = learner.devices[0]!.cookie;
      const playing = (await start(crashing, cookie, ladder.lectureId)).json().playback;
      await crashing.close();
      const master = await masterOf(t, cookie, ladder);
      expect(await segmentStatus(t, cookie, master)).toBe(200);
      expect((await beat(t, cookie, playing.id)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('a signed-out device', () => {
  for (const storage of ['local disk', 'S3'] as const) {
    it(`gets no more of the ladder from ${storage} once it signs out`, async () => {
      const s3 = storage === 'S3' ? await startTestS3() : undefined;
      const t = await createTestApp({ env: s3?.env ?? {} });
      try {
        const admin = await signUpAdmin(t.app);
        const ladder = await lectureWithLadder(t, admin.cookie);
        const learner = await subscriberOn(t, [CHROME_ON_WINDOWS]);
        const cookie = learner.devices[0]!.cookie;
        expect((await start(t, cookie, ladder.lectureId)).statusCode).toBe(201);
        const master = await masterOf(t, cookie, ladder);
        expect([200, 302]).toContain(await segmentStatus(t, cookie, master));
        expect((await t.app.inject({ url: '/api/v1/user/logout', headers: { cookie } })).statusCode).toBe(200);
        expect(await segmentStatus(t, cookie, master)).toBe(403);
        expect((await t.app.inject({ url: master, headers: { cookie } })).statusCode).toBe(403);
      } finally {
        await t.close();
        await s3?.close();
      }
    });
  }
});
