/*
 * The curriculum's order, apart from the quiz schemas: the pages that show a course's curriculum
 * load this without the validation library (a visitor's first download has a budget).
 */

/** A course's curriculum as one list: each item with the section it shows under (null: none). */
export type CurriculumItem<L, Q> = { kind: 'lecture'; lecture: L; sectionId: string | null } | { kind: 'quiz'; quiz: Q; sectionId: string | null };

/**
 * The one order of a course's curriculum: lectures of no section first, then each section's, each
 * quiz at its place (QuizPlacementSchema): after its lecture, else at the end of its section, else
 * at the course's end (in its last section, when it has sections). Lectures come in their order;
 * quizzes sharing a place keep the order they are given in.
 */
export function curriculumItems<L extends { _id: string; sectionId: string | null }, Q extends { sectionId: string | null; afterLectureId: string | null }>(
  sections: readonly { _id: string }[],
  lectures: readonly L[],
  quizzes: readonly Q[],
): CurriculumItem<L, Q>[] {
  const lectureIds = new Set(lectures.map((lecture) => lecture._id));
  const sectionIds = new Set(sections.map((section) => section._id));
  const afterLecture = new Map<string, Q[]>();
  const inSection = new Map<string, Q[]>();
  const atEnd: Q[] = [];
  const add = (map: Map<string, Q[]>, key: string, quiz: Q) => map.set(key, [...(map.get(key) ?? []), quiz]);
  for (const quiz of quizzes) {
    if (quiz.afterLectureId !== null && lectureIds.has(quiz.afterLectureId)) add(afterLecture, quiz.afterLectureId, quiz);
    else if (quiz.sectionId !== null && sectionIds.has(quiz.sectionId)) add(inSection, quiz.sectionId, quiz);
    else atEnd.push(quiz);
  }
  const groups = [null, ...sections.map((section) => section._id)];
  const lecturesOf = new Map<string | null, L[]>(groups.map((id) => [id, []]));
  // A lecture of a section the list does not name (one just deleted elsewhere) stays, among those of no section.
  for (const lecture of lectures) (lecturesOf.get(lecture.sectionId) ?? lecturesOf.get(null)!).push(lecture);
  const items: CurriculumItem<L, Q>[] = [];
  for (const sectionId of groups) {
    for (const lecture of lecturesOf.get(sectionId)!) {
      items.push({ kind: 'lecture', lecture, sectionId });
      for (const quiz of afterLecture.get(lecture._id) ?? []) items.push({ kind: 'quiz', quiz, sectionId });
    }
    const closing = [...(sectionId === null ? [] : (inSection.get(sectionId) ?? [])), ...(sectionId === groups.at(-1) ? atEnd : [])];
    for (const quiz of closing) items.push({ kind: 'quiz', quiz, sectionId });
  }
  return items;
}
