import type { Lecture, Section } from '@lms/contract/lectures';
import { groupBySection, type LecturePlace } from '../../lib/lecture-groups';

/** A group of lectures as the curriculum editor arranges them: its section (null: none) and its lectures' ids, in order. */
export interface EditorGroup {
  sectionId: string | null;
  lectureIds: string[];
}

export const toEditorGroups = (sections: readonly Section[], lectures: readonly Lecture[]): EditorGroup[] =>
  groupBySection(sections, lectures).map((group) => ({ sectionId: group.section?._id ?? null, lectureIds: group.lectures.map((item) => item.lecture._id) }));

/** The group holding `lectureId`, and its index there. */
export function findLecture(groups: readonly EditorGroup[], lectureId: string): { group: number; index: number } | undefined {
  for (const [group, { lectureIds }] of groups.entries()) {
    const index = lectureIds.indexOf(lectureId);
    if (index >= 0) return { group, index };
  }
  return undefined;
}

/** Where a lecture stands in `groups`: its section, and the lecture it follows (null: first). */
export function placeIn(groups: readonly EditorGroup[], lectureId: string): LecturePlace | undefined {
  const found = findLecture(groups, lectureId);
  if (!found) return undefined;
  const { sectionId, lectureIds } = groups[found.group]!;
  return { lectureId, sectionId, afterId: lectureIds[found.index - 1] ?? null };
}

/**
 * Where "Move up" or "Move down" takes a lecture: one place up or down in its group; from the top
 * of a group to the end of the group before it, from the bottom to the start of the next. Null at
 * the very top or bottom of the course.
 */
export function stepPlace(groups: readonly EditorGroup[], lectureId: string, direction: 'up' | 'down'): LecturePlace | null {
  const found = findLecture(groups, lectureId);
  if (!found) return null;
  const { sectionId, lectureIds } = groups[found.group]!;
  if (direction === 'up') {
    if (found.index > 0) return { lectureId, sectionId, afterId: lectureIds[found.index - 2] ?? null };
    const previous = groups[found.group - 1];
    return previous ? { lectureId, sectionId: previous.sectionId, afterId: previous.lectureIds.at(-1) ?? null } : null;
  }
  if (found.index < lectureIds.length - 1) return { lectureId, sectionId, afterId: lectureIds[found.index + 1]! };
  const next = groups[found.group + 1];
  return next ? { lectureId, sectionId: next.sectionId, afterId: null } : null;
}

/** The section a section goes after when moved one step (null: first); undefined when it is already at that end. */
export function sectionStep(sections: readonly Section[], sectionId: string, direction: 'up' | 'down'): string | null | undefined {
  const index = sections.findIndex((section) => section._id === sectionId);
  if (index < 0) return undefined;
  if (direction === 'up') return index === 0 ? undefined : (sections[index - 2]?._id ?? null);
  return index === sections.length - 1 ? undefined : sections[index + 1]!._id;
}
