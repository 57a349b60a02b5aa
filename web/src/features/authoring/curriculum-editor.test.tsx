import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Course } from '@lms/contract/courses';
import type { Lecture, Section } from '@lms/contract/lectures';
import { answers } from '@lms/contract/answers';
import { groupBySection, placeLecture, placeSection } from '../../lib/lecture-groups';
import { renderPage, stubApi } from '../../test/render';
import { CurriculumEditor } from './CurriculumEditor';
import { curriculumTexts as texts } from './curriculum-texts';

const course: Course = {
  _id: '00000000-0000-4000-8000-000000000001',
  title: 'Bookkeeping',
  description: 'Ledgers.',
  category: 'Business',
  createdBy: 'Asha Verma',
  thumbnail: { secure_url: '/media/thumbnails/1.webp' },
  numbersOfLectures: 4,
  totalDuration: null,
  state: 'published',
  publishAt: null,
};
const basics: Section = { _id: '30000000-0000-4000-8000-000000000001', title: 'Basics' };
const advanced: Section = { _id: '30000000-0000-4000-8000-000000000002', title: 'Advanced' };
const lecture = (n: number, sectionId: string | null): Lecture => ({
  _id: `20000000-0000-4000-8000-00000000000${n}`,
  sectionId,
  title: `Lesson ${n}`,
  description: `Part ${n}`,
  secure_url: `/media/private/videos/${n}.mp4?sig=x`,
  duration: null,
  preview: false,
  processing: { state: 'ready', percent: null, reason: null },
  poster_url: null,
  hls_url: null,
  replacement: null,
});
const listUrl = `GET /api/v1/courses/${course._id}`;
/** Lesson 1 of no section; Lessons 2 and 3 in Basics; Lesson 4 in Advanced. */
const arranged = { sections: [basics, advanced], lectures: [lecture(1, null), lecture(2, basics._id), lecture(3, basics._id), lecture(4, advanced._id)] };
const listAnswer = (list: { sections: Section[]; lectures: Lecture[] }) => ({ body: { success: true, message: 'ok', course, ...list } });

/** The server's side of moves, for the list read again after them: the lectures and sections placed as asked. */
function movingServer() {
  let list = arranged;
  const answered = { body: { success: true, message: answers.lectureMoved } };
  const moves = Object.fromEntries(
    arranged.lectures.map((item) => [
      `PUT /api/v1/courses/${course._id}/lectures/${item._id}/position`,
      (init: RequestInit) => {
        const { sectionId, afterId } = JSON.parse(String(init.body));
        list = { ...list, lectures: placeLecture(list.sections, list.lectures, { lectureId: item._id, sectionId, afterId }) };
        return answered;
      },
    ]),
  );
  const sectionMoves = Object.fromEntries(
    arranged.sections.map((section) => [
      `PUT /api/v1/courses/${course._id}/sections/${section._id}/position`,
      (init: RequestInit) => {
        const sections = placeSection(list.sections, section._id, JSON.parse(String(init.body)).afterId);
        list = { sections, lectures: groupBySection(sections, list.lectures).flatMap((group) => group.lectures.map(({ lecture: item }) => item)) };
        return answered;
      },
    ]),
  );
  return { [listUrl]: () => listAnswer(list), ...moves, ...sectionMoves };
}

/** The editor's groups as shown: each group's heading (null: the lectures of no section) and its lectures' titles. */
function shown(): [string | null, string[]][] {
  const editor = screen.getByRole('region', { name: texts.heading });
  return within(editor)
    .getAllByRole('list')
    .map((list) => {
      const section = list.closest('section');
      const heading = section && section !== editor ? within(section).queryAllByRole('heading')[0]?.textContent : null;
      const titles = within(list)
        .queryAllByRole('listitem')
        .map((item) => /Lesson \d/.exec(item.textContent ?? '')?.[0])
        .filter((title) => title !== undefined);
      return [heading === texts.noSection ? null : (heading ?? null), titles];
    });
}

const bodyOf = (calls: { url: string; init: RequestInit }[], method: string, url: string) =>
  calls.filter((call) => call.init.method === method && call.url === url).map((call) => JSON.parse(String(call.init.body)));

describe('CurriculumEditor', () => {
  it('shows the sections and their lectures, and the course editor’s own controls in each row', async () => {
    stubApi({ [listUrl]: listAnswer(arranged) });
    renderPage(<CurriculumEditor courseId={course._id} renderLectureActions={(item) => <button type="button">Replace video of {item.title}</button>} />);
    expect(await screen.findByRole('heading', { name: 'Basics' })).toBeInTheDocument();
    expect(shown()).toEqual([
      [null, ['Lesson 1']],
      ['Basics', ['Lesson 2', 'Lesson 3']],
      ['Advanced', ['Lesson 4']],
    ]);
    expect(screen.getByRole('button', { name: 'Replace video of Lesson 3' })).toBeInTheDocument();
    // Nothing goes above the first lecture or below the last.
    expect(screen.getByRole('button', { name: texts.moveUpOf('Lesson 1') })).toBeDisabled();
    expect(screen.getByRole('button', { name: texts.moveDownOf('Lesson 4') })).toBeDisabled();
    expect(screen.getByRole('button', { name: texts.moveUpOf('Basics') })).toBeDisabled();
    expect(screen.getByRole('button', { name: texts.moveDownOf('Advanced') })).toBeDisabled();
  });

  it('a course without sections is one list, without a heading', async () => {
    stubApi({ [listUrl]: listAnswer({ sections: [], lectures: [lecture(1, null), lecture(2, null)] }) });
    renderPage(<CurriculumEditor courseId={course._id} />);
    await screen.findByText('Lesson 2');
    expect(shown()).toEqual([[null, ['Lesson 1', 'Lesson 2']]]);
    expect(screen.queryByText(texts.noSection)).not.toBeInTheDocument();
  });

  it('moves a lecture by keyboard: within its section, and past its end into the next, one request each, keeping focus', async () => {
    const calls = stubApi(movingServer());
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    const down = await screen.findByRole('button', { name: texts.moveDownOf('Lesson 2') });
    down.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(shown()[1]).toEqual(['Basics', ['Lesson 3', 'Lesson 2']]));
    expect(screen.getByRole('button', { name: texts.moveDownOf('Lesson 2') })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(shown()).toEqual([
        [null, ['Lesson 1']],
        ['Basics', ['Lesson 3']],
        ['Advanced', ['Lesson 2', 'Lesson 4']],
      ]),
    );
    // In another section's list now, yet the same button keeps the focus.
    expect(screen.getByRole('button', { name: texts.moveDownOf('Lesson 2') })).toHaveFocus();
    // Said to screen readers too.
    expect(screen.getByText('Lesson 2 moved to section Advanced, position 1 of 2.')).toHaveAttribute('role', 'status');
    const url = `/api/v1/courses/${course._id}/lectures/${lecture(2, null)._id}/position`;
    await waitFor(() => expect(bodyOf(calls, 'PUT', url)).toHaveLength(2));
    expect(bodyOf(calls, 'PUT', url)).toEqual([
      { sectionId: basics._id, afterId: lecture(3, null)._id },
      { sectionId: advanced._id, afterId: null },
    ]);
    // Once answered, the list is read again: it shows what the server holds, which is the same.
    const reads = () => calls.filter((call) => call.url === `/api/v1/courses/${course._id}` && (call.init.method ?? 'GET') === 'GET').length;
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(2));
    expect(shown()[2]).toEqual(['Advanced', ['Lesson 2', 'Lesson 4']]);
  });

  it('a read of the list that a move overlapped does not put the lecture back, and the next move starts from where it shows', async () => {
    const calls = stubApi(movingServer());
    const served = globalThis.fetch;
    // The reads after the first two are held, each answered with what the server held when it was asked.
    const held: (() => void)[] = [];
    let reads = 0;
    globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
      const answer = served(url, init);
      if ((init.method ?? 'GET') !== 'GET' || url !== `/api/v1/courses/${course._id}` || ++reads < 2 || reads > 3) return answer;
      await new Promise<void>((resolve) => held.push(resolve));
      return answer;
    }) as typeof fetch;
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    (await screen.findByRole('button', { name: texts.moveDownOf('Lesson 2') })).focus();
    await user.keyboard('{Enter}');
    // The first move is answered and the list read again; that read is still on its way when the second move is made.
    await waitFor(() => expect(held).toHaveLength(1));
    await user.keyboard('{Enter}');
    const movedToAdvanced: [string | null, string[]][] = [
      [null, ['Lesson 1']],
      ['Basics', ['Lesson 3']],
      ['Advanced', ['Lesson 2', 'Lesson 4']],
    ];
    await waitFor(() => expect(shown()).toEqual(movedToAdvanced));
    await waitFor(() => expect(bodyOf(calls, 'PUT', `/api/v1/courses/${course._id}/lectures/${lecture(2, null)._id}/position`)).toHaveLength(2));
    // The held read answers the order from before the second move; the read after it is held in turn.
    held.shift()!();
    await waitFor(() => expect(held).toHaveLength(1));
    expect(shown()).toEqual(movedToAdvanced);
    expect(screen.getByRole('button', { name: texts.moveDownOf('Lesson 2') })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(bodyOf(calls, 'PUT', `/api/v1/courses/${course._id}/lectures/${lecture(2, null)._id}/position`).at(-1)).toEqual({
        sectionId: advanced._id,
        afterId: lecture(4, null)._id,
      }),
    );
    held.shift()!();
    await waitFor(() => expect(shown()[2]).toEqual(['Advanced', ['Lesson 4', 'Lesson 2']]));
    expect(reads).toBeGreaterThanOrEqual(4);
  });

  it('moves a lecture up from the top of a section to the end of the part before it', async () => {
    const calls = stubApi(movingServer());
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.click(await screen.findByRole('button', { name: texts.moveUpOf('Lesson 4') }));
    await waitFor(() => expect(shown()[1]).toEqual(['Basics', ['Lesson 2', 'Lesson 3', 'Lesson 4']]));
    await waitFor(() =>
      expect(bodyOf(calls, 'PUT', `/api/v1/courses/${course._id}/lectures/${lecture(4, null)._id}/position`)).toEqual([
        { sectionId: basics._id, afterId: lecture(3, null)._id },
      ]),
    );
  });

  it('moves a section down with its lectures', async () => {
    const calls = stubApi(movingServer());
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.click(await screen.findByRole('button', { name: texts.moveDownOf('Basics') }));
    await waitFor(() =>
      expect(shown()).toEqual([
        [null, ['Lesson 1']],
        ['Advanced', ['Lesson 4']],
        ['Basics', ['Lesson 2', 'Lesson 3']],
      ]),
    );
    expect(screen.getByRole('button', { name: texts.moveUpOf('Basics') })).toHaveFocus();
    await waitFor(() => expect(bodyOf(calls, 'PUT', `/api/v1/courses/${course._id}/sections/${basics._id}/position`)).toEqual([{ afterId: advanced._id }]));
  });

  it('goes back to what the server holds when it refuses a move', async () => {
    stubApi({
      [listUrl]: listAnswer(arranged),
      [`PUT /api/v1/courses/${course._id}/lectures/${lecture(1, null)._id}/position`]: {
        status: 400,
        body: { success: false, message: answers.placeNotInSection },
      },
    });
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.click(await screen.findByRole('button', { name: texts.moveDownOf('Lesson 1') }));
    expect(await screen.findByText(answers.placeNotInSection)).toBeInTheDocument();
    await waitFor(() => expect(shown()[0]).toEqual([null, ['Lesson 1']]));
  });

  it('edits a lecture in place, sending only what changed', async () => {
    const edited = { ...lecture(3, basics._id), title: 'Trial balance', preview: true };
    const calls = stubApi({
      [listUrl]: listAnswer(arranged),
      [`PATCH /api/v1/courses/${course._id}/lectures/${lecture(3, null)._id}`]: { body: { success: true, message: answers.lectureUpdated, lecture: edited } },
    });
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.click(await screen.findByRole('button', { name: texts.editOf('Lesson 3') }));
    const form = screen.getByRole('form', { name: texts.editing('Lesson 3') });
    const title = within(form).getByRole('textbox', { name: texts.title });
    expect(title).toHaveFocus();
    expect(within(form).getByRole('textbox', { name: texts.description })).toHaveValue('Part 3');
    await user.clear(title);
    await user.type(title, 'Trial balance');
    await user.click(within(form).getByRole('checkbox', { name: /Free preview/ }));
    await user.click(within(form).getByRole('button', { name: texts.save }));
    expect(await screen.findByText(answers.lectureUpdated)).toBeInTheDocument();
    expect(bodyOf(calls, 'PATCH', `/api/v1/courses/${course._id}/lectures/${lecture(3, null)._id}`)).toEqual([{ title: 'Trial balance', preview: true }]);
    expect(screen.queryByRole('form', { name: texts.editing('Lesson 3') })).not.toBeInTheDocument();
    expect(screen.getByText('Trial balance')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: texts.editOf('Trial balance') })).toHaveFocus();
  });

  it('closes the form on Cancel or Escape, sending nothing', async () => {
    const calls = stubApi({ [listUrl]: listAnswer(arranged) });
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.click(await screen.findByRole('button', { name: texts.editOf('Lesson 1') }));
    await user.type(screen.getByRole('textbox', { name: texts.title }), ' changed');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: texts.editOf('Lesson 1') }));
    await user.click(screen.getByRole('button', { name: texts.cancel }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.init.method === 'PATCH')).toHaveLength(0);
  });

  it('adds a section, which the list then shows', async () => {
    const added: Section = { _id: '30000000-0000-4000-8000-000000000003', title: 'Year end' };
    let list = arranged;
    const calls = stubApi({
      [listUrl]: () => listAnswer(list),
      [`POST /api/v1/courses/${course._id}/sections`]: () => {
        list = { ...arranged, sections: [...arranged.sections, added] };
        return { status: 201, body: { success: true, message: answers.sectionAdded, section: added } };
      },
    });
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.type(await screen.findByRole('textbox', { name: texts.newSection }), '  Year end ');
    await user.click(screen.getByRole('button', { name: texts.addSection }));
    expect(await screen.findByRole('heading', { name: 'Year end' })).toBeInTheDocument();
    expect(bodyOf(calls, 'POST', `/api/v1/courses/${course._id}/sections`)).toEqual([{ title: 'Year end' }]);
    expect(screen.getByRole('textbox', { name: texts.newSection })).toHaveValue('');
    expect(shown().at(-1)).toEqual(['Year end', []]);
  });

  it('renames a section in place, and deletes one after saying where its lectures go', async () => {
    let list = arranged;
    const calls = stubApi({
      [listUrl]: () => listAnswer(list),
      [`PATCH /api/v1/courses/${course._id}/sections/${advanced._id}`]: () => {
        list = { ...list, sections: [basics, { ...advanced, title: 'Year end' }] };
        return { body: { success: true, message: answers.sectionRenamed, section: { ...advanced, title: 'Year end' } } };
      },
      [`DELETE /api/v1/courses/${course._id}/sections/${basics._id}`]: () => {
        list = { sections: [list.sections[1]!], lectures: list.lectures.map((item) => (item.sectionId === basics._id ? { ...item, sectionId: null } : item)) };
        return { body: { success: true, message: answers.sectionDeleted } };
      },
    });
    const { user } = renderPage(<CurriculumEditor courseId={course._id} />);
    await user.click(await screen.findByRole('button', { name: texts.renameSection('Advanced') }));
    const field = screen.getByRole('textbox', { name: texts.sectionTitle });
    expect(field).toHaveFocus();
    await user.clear(field);
    await user.type(field, 'Year end{Enter}');
    expect(await screen.findByRole('heading', { name: 'Year end' })).toBeInTheDocument();
    expect(bodyOf(calls, 'PATCH', `/api/v1/courses/${course._id}/sections/${advanced._id}`)).toEqual([{ title: 'Year end' }]);

    window.confirm = vi.fn(() => false);
    await user.click(screen.getByRole('button', { name: texts.deleteSectionOf('Basics') }));
    expect(window.confirm).toHaveBeenCalledWith(texts.confirmDeleteSection('Basics', 2, texts.lecturesOfNoSection));
    expect(calls.filter((call) => call.init.method === 'DELETE')).toHaveLength(0);
    window.confirm = vi.fn(() => true);
    await user.click(screen.getByRole('button', { name: texts.deleteSectionOf('Basics') }));
    await waitFor(() =>
      expect(shown()).toEqual([
        [null, ['Lesson 1', 'Lesson 2', 'Lesson 3']],
        ['Year end', ['Lesson 4']],
      ]),
    );
  });
});
