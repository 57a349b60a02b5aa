import type { Section } from '@lms/contract/lectures';

/**
 * A course's lectures as its pages group them: first those of no section (shown without a
 * heading), then each section with its own, sections in order. The server lists lectures in that
 * order; each keeps its index in the whole list, which the player numbers and plays by.
 */
export interface LectureGroup<T> {
  /** Null for the lectures of no section. */
  section: Section | null;
  lectures: { lecture: T; index: number }[];
}

/** The groups of `lectures`: the no-section group first (even empty), then every section (even empty). */
export function groupBySection<T extends { sectionId: string | null }>(sections: readonly Section[], lectures: readonly T[]): LectureGroup<T>[] {
  const groups: LectureGroup<T>[] = [{ section: null, lectures: [] }, ...sections.map((section) => ({ section, lectures: [] }))];
  const bySection = new Map(groups.map((group) => [group.section?._id ?? null, group]));
  // A lecture of a section the list does not name (one just deleted elsewhere) stays visible, with no heading.
  lectures.forEach((lecture, index) => (bySection.get(lecture.sectionId) ?? groups[0]!).lectures.push({ lecture, index }));
  return groups;
}

/** Where a lecture goes: into `sectionId` (null: no section), after the lecture `afterId` of it, or first when null. */
export interface LecturePlace {
  lectureId: string;
  sectionId: string | null;
  afterId: string | null;
}

/** `lectures` (in display order) with one moved to `place`, as the server will order them. */
export function placeLecture<T extends { _id: string; sectionId: string | null }>(
  sections: readonly Section[],
  lectures: readonly T[],
  place: LecturePlace,
): T[] {
  const moved = lectures.find((lecture) => lecture._id === place.lectureId);
  if (!moved) return [...lectures];
  const rest = lectures.filter((lecture) => lecture !== moved);
  const groups = groupBySection(sections, rest).map((group) => group.lectures.map((item) => item.lecture));
  const target = groups[place.sectionId === null ? 0 : sections.findIndex((section) => section._id === place.sectionId) + 1];
  if (!target) return [...lectures];
  const at = place.afterId === null ? 0 : target.findIndex((lecture) => lecture._id === place.afterId) + 1;
  target.splice(at, 0, { ...moved, sectionId: place.sectionId });
  return groups.flat();
}

/** `sections` with `sectionId` moved after `afterId` (first when null). */
export function placeSection(sections: readonly Section[], sectionId: string, afterId: string | null): Section[] {
  const moved = sections.find((section) => section._id === sectionId);
  if (!moved) return [...sections];
  const rest = sections.filter((section) => section !== moved);
  const at = afterId === null ? 0 : rest.findIndex((section) => section._id === afterId) + 1;
  rest.splice(at, 0, moved);
  return rest;
}
