import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import { courses, courseSections, lectures, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { publishCourseDirectly } from '../../test/courses.ts';
import { mp4Video, multipart, pngImage, signUp, signUpAdmin } from '../../test/http.ts';

let t: TestApp;
let admin: string;
let subscriber: { id: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signUpAdmin(t.app)).cookie;
  const paying = await signUp(t.app);
  await t.app.ctx.db
    .update(users)
    .set({ subscriptionEndsAt: new Date(Date.now() + 30 * 24 * 3600 * 1000) })
    .where(eq(users.id, paying.user._id));
  subscriber = { id: paying.user._id, cookie: paying.cookie };
});
afterAll(() => t?.close());

async function newCourse(): Promise<string> {
  const form = await multipart({
    title: 'Arranged course',
    description: 'Chapters and lessons.',
    category: 'Business',
    createdBy: 'Asha Verma',
    thumbnail: { bytes: await pngImage(), filename: 'cover.png', type: 'image/png' },
  });
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/courses', payload: form.payload, headers: { ...form.headers, cookie: admin } });
  expect(response.statusCode, response.body).toBe(201);
  await publishCourseDirectly(t.app.ctx, response.json().course._id);
  return response.json().course._id;
}

/** Adds lectures titled `titles`, in turn; answers their ids by title. */
async function addLectures(courseId: string, titles: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const title of titles) {
    const form = await multipart({ title, description: `About ${title}.`, lectures: { bytes: mp4Video(1024), filename: 'l.mp4', type: 'video/mp4' } });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/courses/${courseId}`,
      payload: form.payload,
      headers: { ...form.headers, cookie: admin },
    });
    expect(response.statusCode, response.body).toBe(201);
    ids[title] = response.json().course.lectures.find((lecture: { title: string }) => lecture.title === title)._id;
  }
  return ids;
}

const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, cookie = admin) =>
  t.app.inject({ method, url: `/api/v1${url}`, ...(payload && { payload }), headers: { cookie } });

async function addSection(courseId: string, title: string): Promise<string> {
  const response = await send('POST', `/courses/${courseId}/sections`, { title });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().section._id;
}

const moveLecture = (courseId: string, lectureId: string, sectionId: string | null, afterId: string | null, cookie = admin) =>
  send('PUT', `/courses/${courseId}/lectures/${lectureId}/position`, { sectionId, afterId }, cookie);
const moveSection = (courseId: string, sectionId: string, afterId: string | null) =>
  send('PUT', `/courses/${courseId}/sections/${sectionId}/position`, { afterId });

type Listed = { sections: { _id: string; title: string }[]; lectures: { _id: string; title: string; sectionId: string | null }[] };

/**
 * The course as a reader sees it: the lectures of no section, then each section's title and lectures,
 * in order. Checked to be the same in the subscriber's list and the public curriculum, and the
 * lectures to come in exactly that order.
 */
async function outline(courseId: string): Promise<[string | null, string[]][]> {
  const [listed, curriculum] = await Promise.all([
    t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: subscriber.cookie } }),
    t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum` }),
  ]);
  const of = (body: Listed) => {
    const groups: [string | null, string[]][] = [[null, []], ...body.sections.map((section): [string, string[]] => [section.title, []])];
    const index = new Map(body.sections.map((section, i) => [section._id, i + 1]));
    for (const lecture of body.lectures) groups[lecture.sectionId === null ? 0 : index.get(lecture.sectionId)!]![1].push(lecture.title);
    expect(body.lectures.map((lecture) => lecture.title)).toEqual(groups.flatMap(([, titles]) => titles));
    return groups;
  };
  const groups = of(listed.json());
  expect(of(curriculum.json())).toEqual(groups);
  return groups;
}

const updatedAt = async (courseId: string) =>
  (await t.app.ctx.db.select({ updatedAt: courses.updatedAt }).from(courses).where(eq(courses.id, courseId)))[0]!.updatedAt.getTime();

describe('sections', () => {
  it('a course without sections lists its lectures alone, each of no section, as before', async () => {
    const courseId = await newCourse();
    await addLectures(courseId, ['One', 'Two']);
    const body = (await t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum` })).json();
    expect(body.sections).toEqual([]);
    expect(body.lectures.map((lecture: { title: string; sectionId: null }) => [lecture.title, lecture.sectionId])).toEqual([
      ['One', null],
      ['Two', null],
    ]);
    expect((await t.app.inject({ url: `/api/v1/courses/${courseId}`, headers: { cookie: subscriber.cookie } })).json().sections).toEqual([]);
  });

  it('are added last, renamed, and shown in order to subscribers and visitors, with the lectures moved into them', async () => {
    const courseId = await newCourse();
    const ids = await addLectures(courseId, ['Welcome', 'Ledgers', 'Journals', 'Closing']);
    const added = await send('POST', `/courses/${courseId}/sections`, { title: '  Basics  ' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ success: true, message: answers.sectionAdded, section: { _id: expect.any(String), title: 'Basics' } });
    const basics = added.json().section._id;
    const advanced = await addSection(courseId, 'Advanced');
    expect(await outline(courseId)).toEqual([
      [null, ['Welcome', 'Ledgers', 'Journals', 'Closing']],
      ['Basics', []],
      ['Advanced', []],
    ]);

    expect((await moveLecture(courseId, ids.Ledgers!, basics, null)).json()).toEqual({ success: true, message: answers.lectureMoved });
    await moveLecture(courseId, ids.Journals!, basics, ids.Ledgers!);
    await moveLecture(courseId, ids.Closing!, advanced, null);
    const renamed = await send('PATCH', `/courses/${courseId}/sections/${advanced}`, { title: 'Year end' });
    expect(renamed.json()).toEqual({ success: true, message: answers.sectionRenamed, section: { _id: advanced, title: 'Year end' } });
    expect(await outline(courseId)).toEqual([
      [null, ['Welcome']],
      ['Basics', ['Ledgers', 'Journals']],
      ['Year end', ['Closing']],
    ]);
  });

  it('refuse a blank or too long title, and are not found in another course', async () => {
    const courseId = await newCourse();
    const otherCourse = await newCourse();
    const section = await addSection(courseId, 'Kept');
    for (const [payload, message] of [
      [{}, messages.allFieldsMandatory],
      [{ title: '   ' }, messages.allFieldsMandatory],
      [{ title: 'x'.repeat(121) }, messages.titleTooLong],
    ] as const) {
      expect((await send('POST', `/courses/${courseId}/sections`, payload)).json()).toEqual({ success: false, message });
      expect((await send('PATCH', `/courses/${courseId}/sections/${section}`, payload)).json()).toEqual({ success: false, message });
    }
    for (const response of [
      await send('PATCH', `/courses/${otherCourse}/sections/${section}`, { title: 'Stolen' }),
      await send('DELETE', `/courses/${otherCourse}/sections/${section}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, message: answers.sectionNotFound });
    }
    const unknownCourse = await send('POST', `/courses/00000000-0000-4000-8000-000000000000/sections`, { title: 'Nowhere' });
    expect(unknownCourse.statusCode).toBe(404);
    expect(await outline(courseId)).toEqual([
      [null, []],
      ['Kept', []],
    ]);
    expect(await outline(otherCourse)).toEqual([[null, []]]);
  });

  it('are for admins only', async () => {
    const courseId = await newCourse();
    const section = await addSection(courseId, 'Mine');
    const refused = [
      await send('POST', `/courses/${courseId}/sections`, { title: 'Sneaky' }, subscriber.cookie),
      await send('PATCH', `/courses/${courseId}/sections/${section}`, { title: 'Sneaky' }, subscriber.cookie),
      await send('DELETE', `/courses/${courseId}/sections/${section}`, undefined, subscriber.cookie),
      await send('PUT', `/courses/${courseId}/sections/${section}/position`, { afterId: null }, subscriber.cookie),
    ];
    for (const response of refused) expect(response.statusCode).toBe(403);
    expect((await send('POST', `/courses/${courseId}/sections`, { title: 'Sneaky' }, '')).statusCode).toBe(401);
    expect(await outline(courseId)).toEqual([
      [null, []],
      ['Mine', []],
    ]);
  });

  it('move with their lectures', async () => {
    const courseId = await newCourse();
    const ids = await addLectures(courseId, ['a1', 'b1', 'c1']);
    const [a, b, c] = [await addSection(courseId, 'A'), await addSection(courseId, 'B'), await addSection(courseId, 'C')];
    await moveLecture(courseId, ids.a1!, a!, null);
    await moveLecture(courseId, ids.b1!, b!, null);
    await moveLecture(courseId, ids.c1!, c!, null);
    expect((await moveSection(courseId, c!, null)).json()).toEqual({ success: true, message: answers.sectionMoved });
    await moveSection(courseId, a!, b!);
    expect(await outline(courseId)).toEqual([
      [null, []],
      ['C', ['c1']],
      ['B', ['b1']],
      ['A', ['a1']],
    ]);
    // Where it already is: nothing changes.
    expect((await moveSection(courseId, b!, c!)).statusCode).toBe(200);
    expect((await outline(courseId)).map(([title]) => title)).toEqual([null, 'C', 'B', 'A']);
  });

  it('deleted: their lectures keep their place, at the end of the part before (the lectures of no section, for the first)', async () => {
    const courseId = await newCourse();
    const ids = await addLectures(courseId, ['intro', 'a1', 'a2', 'b1', 'b2', 'c1']);
    const [a, b, c] = [await addSection(courseId, 'A'), await addSection(courseId, 'B'), await addSection(courseId, 'C')];
    for (const [title, section] of [
      ['a1', a],
      ['a2', a],
      ['b1', b],
      ['b2', b],
      ['c1', c],
    ] as const) {
      const last = (await outline(courseId)).find(([name]) => name === { [a!]: 'A', [b!]: 'B', [c!]: 'C' }[section!])![1].at(-1);
      expect((await moveLecture(courseId, ids[title]!, section!, last ? ids[last]! : null)).statusCode).toBe(200);
    }
    const before = await updatedAt(courseId);
    const deleted = await send('DELETE', `/courses/${courseId}/sections/${b}`);
    expect(deleted.json()).toEqual({ success: true, message: answers.sectionDeleted });
    expect(await outline(courseId)).toEqual([
      [null, ['intro']],
      ['A', ['a1', 'a2', 'b1', 'b2']],
      ['C', ['c1']],
    ]);
    await send('DELETE', `/courses/${courseId}/sections/${a}`);
    expect(await outline(courseId)).toEqual([
      [null, ['intro', 'a1', 'a2', 'b1', 'b2']],
      ['C', ['c1']],
    ]);
    expect(await updatedAt(courseId)).toBeGreaterThan(before);
    // The moved lectures may move again: their new places are real ones.
    expect((await moveLecture(courseId, ids.b2!, null, null)).statusCode).toBe(200);
    expect((await outline(courseId))[0]![1]).toEqual(['b2', 'intro', 'a1', 'a2', 'b1']);
    expect((await send('DELETE', `/courses/${courseId}/sections/${a}`)).statusCode).toBe(404);
  });
});

describe('PUT /courses/:courseId/lectures/:lectureId/position', () => {
  let courseId: string;
  let otherCourse: string;
  let ids: Record<string, string>;
  let other: Record<string, string>;
  let week1: string;
  let week2: string;
  let foreignSection: string;
  beforeAll(async () => {
    courseId = await newCourse();
    otherCourse = await newCourse();
    ids = await addLectures(courseId, ['A', 'B', 'C', 'D']);
    other = await addLectures(otherCourse, ['Elsewhere']);
    week1 = await addSection(courseId, 'Week 1');
    week2 = await addSection(courseId, 'Week 2');
    foreignSection = await addSection(otherCourse, 'Not yours');
  });

  it('moves within the lectures of no section, to the first place and after another', async () => {
    await moveLecture(courseId, ids.D!, null, null);
    await moveLecture(courseId, ids.A!, null, ids.C!);
    expect((await outline(courseId))[0]).toEqual([null, ['D', 'B', 'C', 'A']]);
    // Moving after the lecture it already follows changes nothing.
    expect((await moveLecture(courseId, ids.B!, null, ids.D!)).statusCode).toBe(200);
    expect((await outline(courseId))[0]).toEqual([null, ['D', 'B', 'C', 'A']]);
  });

  it('moves across sections and back, touching the course and showing at once in the cached curriculum', async () => {
    const before = await updatedAt(courseId);
    await moveLecture(courseId, ids.B!, week2, null);
    await moveLecture(courseId, ids.C!, week2, ids.B!);
    await moveLecture(courseId, ids.D!, week1, null);
    expect(await outline(courseId)).toEqual([
      [null, ['A']],
      ['Week 1', ['D']],
      ['Week 2', ['B', 'C']],
    ]);
    await moveLecture(courseId, ids.C!, null, null);
    expect(await outline(courseId)).toEqual([
      [null, ['C', 'A']],
      ['Week 1', ['D']],
      ['Week 2', ['B']],
    ]);
    expect(await updatedAt(courseId)).toBeGreaterThan(before);
  });

  it('is 400 for a lecture or section of another course, or a place that is not in the section named, and nothing moves', async () => {
    const before = await outline(courseId);
    const beforeOther = await outline(otherCourse);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [lecture, section, after, message] of [
      [other.Elsewhere, null, null, answers.lectureNotInCourse],
      [unknown, null, null, answers.lectureNotInCourse],
      [ids.A, foreignSection, null, answers.sectionNotInCourse],
      [ids.A, unknown, null, answers.sectionNotInCourse],
      [ids.A, null, other.Elsewhere, answers.placeNotInSection],
      // C is of no section, not of Week 2.
      [ids.A, week2, ids.C, answers.placeNotInSection],
      [ids.A, foreignSection, other.Elsewhere, answers.placeNotInSection],
      [ids.A, null, ids.A, answers.placeNotInSection],
    ] as const) {
      const response = await moveLecture(courseId, lecture!, section, after ?? null);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    // The other course's lecture is not moved into this one either way round.
    const across = await moveLecture(otherCourse, ids.A!, null, null);
    expect(across.json()).toEqual({ success: false, message: answers.lectureNotInCourse });
    expect(await outline(courseId)).toEqual(before);
    expect(await outline(otherCourse)).toEqual(beforeOther);
  });

  it('says what is missing or malformed, and is for admins only', async () => {
    for (const [payload, message] of [
      [{}, answers.placeMissing],
      [{ sectionId: null }, answers.placeMissing],
      [{ afterId: null }, answers.placeMissing],
      [{ sectionId: 'week-1', afterId: null }, answers.invalidId],
    ] as const) {
      const response = await send('PUT', `/courses/${courseId}/lectures/${ids.A}/position`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect((await moveLecture(courseId, ids.A!, null, null, subscriber.cookie)).statusCode).toBe(403);
    expect((await moveLecture(courseId, ids.A!, null, null, '')).statusCode).toBe(401);
    expect((await moveLecture('00000000-0000-4000-8000-000000000000', ids.A!, null, null)).statusCode).toBe(404);
  });
});

describe('sections: 400 for a section of another course in a move', () => {
  it('refuses to move a section of another course, or after one', async () => {
    const courseId = await newCourse();
    const otherCourse = await newCourse();
    const mine = await addSection(courseId, 'Mine');
    const second = await addSection(courseId, 'Second');
    const theirs = await addSection(otherCourse, 'Theirs');
    for (const [section, after, message] of [
      [theirs, null, answers.sectionNotInCourse],
      [mine, theirs, answers.placeNotSection],
      [mine, mine, answers.placeNotSection],
    ] as const) {
      const response = await moveSection(courseId, section, after);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect((await outline(courseId)).map(([title]) => title)).toEqual([null, 'Mine', 'Second']);
    void second;
  });
});

describe('concurrent moves', () => {
  /** Every lecture of the course once, and no two in one place. */
  async function expectNoneLostOrDoubled(courseId: string, count: number) {
    const rows = await t.app.ctx.db
      .select({ id: lectures.id, sectionId: lectures.sectionId, rank: lectures.rank })
      .from(lectures)
      .where(eq(lectures.courseId, courseId));
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((row) => `${row.sectionId}/${row.rank}`)).size).toBe(count);
  }

  it('twenty at once, each after its own anchor, within and across sections: every one lands where it was sent', async () => {
    const courseId = await newCourse();
    const anchors = Object.values(
      await addLectures(
        courseId,
        Array.from({ length: 20 }, (_, i) => `anchor ${i}`),
      ),
    );
    const movers = Object.values(
      await addLectures(
        courseId,
        Array.from({ length: 20 }, (_, i) => `mover ${i}`),
      ),
    );
    const section = await addSection(courseId, 'Second half');
    // Anchors 10–19 into the section, in order: their movers will follow them there from outside it.
    for (let i = 10; i < 20; i++) await moveLecture(courseId, anchors[i]!, section, i === 10 ? null : anchors[i - 1]!);
    const answered = await Promise.all(movers.map((mover, i) => moveLecture(courseId, mover, i < 10 ? null : section, anchors[i]!)));
    for (const response of answered) expect(response.statusCode, response.body).toBe(200);
    await expectNoneLostOrDoubled(courseId, 40);
    const pairs = (from: number) => Array.from({ length: 10 }, (_, i) => [`anchor ${from + i}`, `mover ${from + i}`]).flat();
    expect(await outline(courseId)).toEqual([
      [null, pairs(0)],
      ['Second half', pairs(10)],
    ]);
  });

  it('twenty at once into the same place: all take turns, none is lost or doubled', async () => {
    const courseId = await newCourse();
    const ids = Object.values(
      await addLectures(
        courseId,
        Array.from({ length: 21 }, (_, i) => `L${i}`),
      ),
    );
    const section = await addSection(courseId, 'Crowded');
    const [anchor, ...movers] = ids;
    await moveLecture(courseId, anchor!, section, null);
    const answered = await Promise.all(movers.map((mover) => moveLecture(courseId, mover!, section, anchor!)));
    for (const response of answered) expect(response.statusCode, response.body).toBe(200);
    await expectNoneLostOrDoubled(courseId, 21);
    const [loose, crowded] = await outline(courseId);
    expect(loose).toEqual([null, []]);
    // The anchor first; after it the twenty, the last to be served nearest to it.
    expect(crowded![1][0]).toBe('L0');
    expect([...crowded![1]].sort()).toEqual(ids.map((_, i) => `L${i}`).sort());
    const rows = await t.app.ctx.db
      .select({ id: lectures.id })
      .from(lectures)
      .where(and(eq(lectures.courseId, courseId), eq(lectures.sectionId, section)));
    expect(rows).toHaveLength(21);
  });

  it('and concurrent section moves keep every section once, in distinct places', async () => {
    const courseId = await newCourse();
    const sections = [];
    for (let i = 0; i < 8; i++) sections.push(await addSection(courseId, `S${i}`));
    const answered = await Promise.all(sections.slice(1).map((section) => moveSection(courseId, section, null)));
    for (const response of answered) expect(response.statusCode).toBe(200);
    const rows = await t.app.ctx.db.select({ rank: courseSections.rank }).from(courseSections).where(eq(courseSections.courseId, courseId));
    expect(new Set(rows.map((row) => row.rank)).size).toBe(8);
    const titles = (await outline(courseId)).map(([title]) => title);
    expect(titles).toHaveLength(9);
    expect(titles.at(-1)).toBe('S0');
  });
});

describe('PATCH /courses/:courseId/lectures/:lectureId in place', () => {
  it('changes the title and description, alone or with the preview, and the curriculum shows it at once', async () => {
    const courseId = await newCourse();
    const { Draft } = await addLectures(courseId, ['Draft']);
    await t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum` });
    const response = await send('PATCH', `/courses/${courseId}/lectures/${Draft}`, { title: ' Final title ', description: 'Rewritten.' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: answers.lectureUpdated,
      lecture: { _id: Draft, title: 'Final title', description: 'Rewritten.', preview: false, sectionId: null },
    });
    const both = await send('PATCH', `/courses/${courseId}/lectures/${Draft}`, { description: 'Again.', preview: true });
    expect(both.json()).toMatchObject({ message: answers.lectureUpdated, lecture: { title: 'Final title', description: 'Again.', preview: true } });
    const listed = (await t.app.inject({ url: `/api/v1/courses/${courseId}/curriculum` })).json().lectures[0];
    expect(listed).toMatchObject({ title: 'Final title', description: 'Again.', preview: true });
    // A preview switch alone keeps its own words.
    expect((await send('PATCH', `/courses/${courseId}/lectures/${Draft}`, { preview: false })).json().message).toBe(answers.lecturePreviewOff);
  });

  it('refuses a blank or too long text, or nothing to change, and changes nothing', async () => {
    const courseId = await newCourse();
    const { Kept } = await addLectures(courseId, ['Kept']);
    for (const [payload, message] of [
      [{}, answers.lectureChangeEmpty],
      [{ unknown: 'x' }, answers.lectureChangeEmpty],
      [{ title: '' }, messages.allFieldsMandatory],
      [{ title: 'Fine', description: '  ' }, messages.allFieldsMandatory],
      [{ title: 'x'.repeat(121) }, messages.titleTooLong],
      [{ description: 'x'.repeat(5001) }, messages.descriptionTooLong],
      [{ title: 'Two\nlines' }, answers.titleNotPlain],
      [{ title: 'Fine', preview: 'yes' }, answers.previewInvalid],
    ] as const) {
      const response = await send('PATCH', `/courses/${courseId}/lectures/${Kept}`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    const [row] = await t.app.ctx.db.select().from(lectures).where(eq(lectures.id, Kept!));
    expect(row).toMatchObject({ title: 'Kept', description: 'About Kept.', isPreview: false });
  });
});

describe('a learner picks up in display order', () => {
  it('the lecture after a completed one is the next shown, not the next by rank', async () => {
    const courseId = await newCourse();
    const ids = await addLectures(courseId, ['First', 'Second', 'Third']);
    const section = await addSection(courseId, 'Later');
    await moveLecture(courseId, ids.Second!, section, null);
    // Its rank falls between the others': ordered by rank alone, Second would come before Third.
    await t.app.ctx.db.update(lectures).set({ rank: 'a1' }).where(eq(lectures.id, ids.Second!));
    expect(await outline(courseId)).toEqual([
      [null, ['First', 'Third']],
      ['Later', ['Second']],
    ]);
    const done = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/progress/lectures/${ids.First}/completed`,
      payload: { completed: true },
      headers: { cookie: subscriber.cookie },
    });
    expect(done.statusCode, done.body).toBe(200);
    const mine = (await t.app.inject({ url: '/api/v1/progress', headers: { cookie: subscriber.cookie } })).json();
    const course = mine.courses.find((entry: { course: { _id: string } }) => entry.course._id === courseId);
    expect(course.resume).toMatchObject({ lectureId: ids.Third, title: 'Third' });
  });
});
