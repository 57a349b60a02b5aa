import { describe, expect, it } from 'vitest';
import { curriculumItems } from '@lms/contract/quizzes';

// The one merge of quizzes into a course's order, which the server's lists and every page share.
const lecture = (id: string, sectionId: string | null) => ({ _id: id, sectionId });
const quiz = (id: string, { sectionId = null, afterLectureId = null }: { sectionId?: string | null; afterLectureId?: string | null } = {}) => ({
  id,
  sectionId,
  afterLectureId,
});
const names = (
  items: ReturnType<typeof curriculumItems<{ _id: string; sectionId: string | null }, { id: string; sectionId: string | null; afterLectureId: string | null }>>,
) => items.map((item) => (item.kind === 'lecture' ? `${item.lecture._id}@${item.sectionId}` : `quiz ${item.quiz.id}@${item.sectionId}`));

describe('curriculumItems', () => {
  it('puts a quiz after its lecture, at its section’s end, or at the course’s end (in the last section)', () => {
    const sections = [{ _id: 'S1' }, { _id: 'S2' }];
    const lectures = [lecture('intro', null), lecture('a', 'S1'), lecture('b', 'S1'), lecture('c', 'S2')];
    const quizzes = [quiz('end'), quiz('afterA', { afterLectureId: 'a' }), quiz('s1', { sectionId: 'S1' }), quiz('afterIntro', { afterLectureId: 'intro' })];
    expect(names(curriculumItems(sections, lectures, quizzes))).toEqual([
      'intro@null',
      'quiz afterIntro@null',
      'a@S1',
      'quiz afterA@S1',
      'b@S1',
      'quiz s1@S1',
      'c@S2',
      'quiz end@S2',
    ]);
  });

  it('keeps quizzes sharing a place in the order given, and falls back when their lecture or section is gone', () => {
    const lectures = [lecture('a', null), lecture('b', null)];
    const quizzes = [
      quiz('first', { afterLectureId: 'a' }),
      quiz('gone', { afterLectureId: 'deleted', sectionId: 'deleted section' }),
      quiz('second', { afterLectureId: 'a' }),
    ];
    expect(names(curriculumItems([], lectures, quizzes))).toEqual(['a@null', 'quiz first@null', 'quiz second@null', 'b@null', 'quiz gone@null']);
  });

  it('shows a quiz placed in an empty section, and keeps a lecture of a section the list does not name', () => {
    const items = curriculumItems([{ _id: 'S1' }], [lecture('orphan', 'unknown')], [quiz('q', { sectionId: 'S1' })]);
    expect(names(items)).toEqual(['orphan@null', 'quiz q@S1']);
  });
});
