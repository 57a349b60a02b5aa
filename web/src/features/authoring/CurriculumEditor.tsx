import type { Lecture, Section } from '@lms/contract/lectures';
import { curriculumItems, type QuizSummary } from '@lms/contract/quizzes';
import {
  closestCenter,
  DndContext,
  DragOverlay,
  PointerSensor,
  pointerWithin,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Fragment, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { groupBySection, placeLecture, type LecturePlace } from '../../lib/lecture-groups';
import { messageOf } from '../../lib/server-state';
import {
  useDeleteSectionMutation,
  useEditLectureMutation,
  useGetLecturesQuery,
  useMoveLectureMutation,
  useMoveSectionMutation,
  useRenameSectionMutation,
} from '../lectures';
import { AddSectionForm } from './AddSectionForm';
import { findLecture, placeIn, sectionStep, stepPlace, toEditorGroups, type EditorGroup } from './curriculum-moves';
import { curriculumTexts as texts } from './curriculum-texts';
import { editQuizLink, quizEditorTexts } from '../quizzes';
import { EditorLecture } from './EditorLecture';
import { EditorQuiz } from './EditorQuiz';
import { EditorSection, groupDropId, LooseLectures, sectionDragId, type GroupEnd } from './EditorSection';
import { LectureEditForm } from './LectureEditForm';

export interface CurriculumEditorProps {
  courseId: string;
  /** The course editor's own controls in each lecture's row (replace the video, resources, delete). */
  renderLectureActions?: (lecture: Lecture) => ReactNode;
}

/**
 * The admin's curriculum of a course: its sections (added, renamed, deleted, moved) and its
 * lectures in order, moved within and across sections by dragging or with Move up/down (past
 * the top or bottom of a section, into the neighbouring one), and edited in place (title,
 * description, free preview). A move shows at once; each is one request, and the list is read
 * again once they are all answered (curriculum.api.ts in features/lectures).
 */
export function CurriculumEditor({ courseId, renderLectureActions }: CurriculumEditorProps) {
  const headingId = useId();
  const answer = useGetLecturesQuery(courseId);
  const [moveLecture] = useMoveLectureMutation();
  const [moveSection] = useMoveSectionMutation();
  const [renameSection, renaming] = useRenameSectionMutation();
  const [deleteSection, deleting] = useDeleteSectionMutation();
  const [editLecture, saving] = useEditLectureMutation();
  const sections = useMemo(() => answer.currentData?.sections ?? [], [answer.currentData]);
  const lectures = useMemo(() => answer.currentData?.lectures ?? [], [answer.currentData]);
  const quizzes = useMemo(() => answer.currentData?.quizzes ?? [], [answer.currentData]);
  const serverGroups = useMemo(() => toEditorGroups(sections, lectures), [sections, lectures]);
  const quizPlaces = useMemo(() => placesOfQuizzes(sections, lectures, quizzes), [sections, lectures, quizzes]);
  /** While a lecture is dragged: where it is shown now (it may have crossed into another group). */
  const [dragGroups, setDragGroups] = useState<EditorGroup[] | null>(null);
  const [dragged, setDragged] = useState<{ id: string; title: string } | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  /** The control to give focus to once the list has moved under it (`data-focus`), with the one to try if that is disabled. */
  const [focusRequest, setFocusRequest] = useState<string[] | null>(null);
  const root = useRef<HTMLElement>(null);
  const groups = dragGroups ?? serverGroups;
  const groupsRef = useRef(groups);
  groupsRef.current = groups;
  const byId = useMemo(() => new Map(lectures.map((lecture) => [lecture._id, lecture])), [lectures]);
  const numberOf = new Map(groups.flatMap((group) => group.lectureIds).map((id, index) => [id, index + 1]));
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  useEffect(() => {
    if (!focusRequest) return;
    for (const key of focusRequest) {
      const control = root.current?.querySelector<HTMLButtonElement>(`[data-focus="${key}"]`);
      if (control && !control.disabled) {
        control.focus();
        break;
      }
    }
    setFocusRequest(null);
  }, [focusRequest, groups]);

  function sendLectureTo(place: LecturePlace) {
    void moveLecture({ courseId, ...place });
    // Said as the list will show it: the lecture's group, and its place there.
    const after = groupBySection(sections, placeLecture(sections, lectures, place));
    const group = after.find((item) => (item.section?._id ?? null) === place.sectionId)!;
    const position = group.lectures.findIndex((item) => item.lecture._id === place.lectureId) + 1;
    setAnnouncement(
      texts.lectureMovedTo(byId.get(place.lectureId)?.title ?? '', texts.groupName(group.section?.title ?? null), position, group.lectures.length),
    );
  }

  function sendSectionTo(section: Section, afterId: string | null) {
    void moveSection({ courseId, sectionId: section._id, afterId });
    const position = afterId === null ? 1 : sections.filter((item) => item._id !== section._id).findIndex((item) => item._id === afterId) + 2;
    setAnnouncement(texts.sectionMovedTo(section.title, position, sections.length));
  }

  function stepLecture(lectureId: string, direction: 'up' | 'down') {
    const place = stepPlace(serverGroups, lectureId, direction);
    if (!place) return;
    sendLectureTo(place);
    const other = direction === 'up' ? 'down' : 'up';
    setFocusRequest([`lecture:${lectureId}:${direction}`, `lecture:${lectureId}:${other}`]);
  }

  function stepSection(section: Section, direction: 'up' | 'down') {
    const afterId = sectionStep(sections, section._id, direction);
    if (afterId === undefined) return;
    sendSectionTo(section, afterId);
    const other = direction === 'up' ? 'down' : 'up';
    setFocusRequest([`section:${section._id}:${direction}`, `section:${section._id}:${other}`]);
  }

  async function removeSection(section: Section, index: number) {
    const count = serverGroups[index + 1]?.lectureIds.length ?? 0;
    const destination = index === 0 ? texts.lecturesOfNoSection : texts.sectionNamed(sections[index - 1]!.title);
    if (!window.confirm(texts.confirmDeleteSection(section.title, count, destination))) return;
    await deleteSection({ courseId, sectionId: section._id });
  }

  async function saveLecture(lecture: Lecture, change: Parameters<typeof editLecture>[0]['change']) {
    const result = await editLecture({ courseId, lectureId: lecture._id, change });
    if ('error' in result) return;
    setEditingId(null);
    setFocusRequest([`lecture:${lecture._id}:edit`]);
  }

  // Sections are dropped among sections; a lecture on another lecture, or into a group's list (an empty section's too).
  const collisions: CollisionDetection = (args) => {
    const isSection = args.active.data.current?.type === 'section';
    const of = (type: string) => args.droppableContainers.filter((container) => container.data.current?.type === type);
    if (isSection) return closestCenter({ ...args, droppableContainers: of('section') });
    const overGroup = pointerWithin({ ...args, droppableContainers: of('group') })[0];
    const group = overGroup && groupsRef.current.find((item) => groupDropId(item.sectionId) === overGroup.id);
    if (group && group.lectureIds.length === 0) return [overGroup];
    const lectureTargets = of('lecture').filter((container) => !group || group.lectureIds.includes(String(container.id)));
    return closestCenter({ ...args, droppableContainers: lectureTargets });
  };

  function onDragOver({ active, over }: DragOverEvent) {
    if (!over || active.data.current?.type !== 'lecture') return;
    const current = groupsRef.current;
    const activeId = String(active.id);
    const from = findLecture(current, activeId);
    const to =
      over.data.current?.type === 'group' ? current.findIndex((item) => groupDropId(item.sectionId) === over.id) : findLecture(current, String(over.id))?.group;
    if (!from || to === undefined || to < 0 || from.group === to) return;
    const next = current.map((item) => ({ ...item, lectureIds: item.lectureIds.filter((id) => id !== activeId) }));
    const target = next[to]!.lectureIds;
    const overIndex = target.indexOf(String(over.id));
    const translated = active.rect.current.translated;
    const below = translated !== null && translated.top > over.rect.top + over.rect.height / 2;
    target.splice(overIndex < 0 ? target.length : overIndex + (below ? 1 : 0), 0, activeId);
    setDragGroups(next);
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    const current = groupsRef.current;
    setDragGroups(null);
    setDragged(null);
    if (!over) return;
    if (active.data.current?.type === 'section') {
      const ids = sections.map((section) => sectionDragId(section._id));
      const [from, to] = [ids.indexOf(String(active.id)), ids.indexOf(String(over.id))];
      if (from < 0 || to < 0 || from === to) return;
      const reordered = arrayMove(sections, from, to);
      return sendSectionTo(sections[from]!, reordered[to - 1]?._id ?? null);
    }
    const activeId = String(active.id);
    const at = findLecture(current, activeId);
    const overAt = findLecture(current, String(over.id));
    const final =
      at && overAt && at.group === overAt.group && at.index !== overAt.index
        ? current.map((item, index) => (index === at.group ? { ...item, lectureIds: arrayMove(item.lectureIds, at.index, overAt.index) } : item))
        : current;
    const place = placeIn(final, activeId);
    const before = placeIn(serverGroups, activeId);
    if (place && (place.sectionId !== before?.sectionId || place.afterId !== before.afterId)) sendLectureTo(place);
  }

  const quizRows = (list: readonly QuizSummary[] | undefined) => list?.map((quiz) => <EditorQuiz key={quiz._id} courseId={courseId} quiz={quiz} />);
  const groupEnd = (section: Section | null): GroupEnd => ({
    quizzes: quizRows(quizPlaces.atEnd.get(section?._id ?? null)),
    addQuiz: section && (
      <Link
        to={editQuizLink(courseId, { sectionId: section._id })}
        className="btn btn-ghost btn-xs"
        aria-label={quizEditorTexts.addQuizToSectionOf(section.title)}
      >
        <Plus />
        {quizEditorTexts.addQuizToSection}
      </Link>
    ),
  });

  const row = (lectureId: string) => {
    const lecture = byId.get(lectureId);
    if (!lecture) return null;
    return (
      <Fragment key={lecture._id}>
        <EditorLecture
          lecture={lecture}
          number={numberOf.get(lecture._id) ?? 0}
          actions={{
            onStep: (direction) => stepLecture(lecture._id, direction),
            canStep: { up: stepPlace(serverGroups, lecture._id, 'up') !== null, down: stepPlace(serverGroups, lecture._id, 'down') !== null },
            onEdit: () => setEditingId(editingId === lecture._id ? null : lecture._id),
          }}
          editing={
            editingId === lecture._id && (
              <LectureEditForm
                lecture={lecture}
                busy={saving.isLoading}
                onSave={(change) => void saveLecture(lecture, change)}
                onCancel={() => {
                  setEditingId(null);
                  setFocusRequest([`lecture:${lecture._id}:edit`]);
                }}
              />
            )
          }
          extra={renderLectureActions?.(lecture)}
        />
        {quizRows(quizPlaces.afterLecture.get(lecture._id))}
      </Fragment>
    );
  };

  return (
    <section ref={root} aria-labelledby={headingId} className="min-w-0 space-y-4">
      <div>
        <h2 id={headingId} className="text-xl font-bold">
          {texts.heading}
        </h2>
        <p className="mt-1 text-sm text-base-content/70">{texts.intro}</p>
      </div>
      {answer.isError && !answer.currentData ? (
        <div role="alert" className="alert alert-warning flex flex-wrap">
          <span className="wrap-anywhere">{messageOf(answer.error, texts.loadFailed)}</span>
          <button type="button" className="btn btn-sm" onClick={() => void answer.refetch()}>
            {texts.retry}
          </button>
        </div>
      ) : !answer.currentData ? (
        <div aria-hidden="true" className="space-y-2">
          {[0, 1, 2].map((item) => (
            <div key={item} className="skeleton h-16 w-full" />
          ))}
        </div>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={collisions}
          onDragStart={({ active }) => {
            const section = sections.find((item) => sectionDragId(item._id) === active.id);
            setDragged({ id: String(active.id), title: section?.title ?? byId.get(String(active.id))?.title ?? '' });
          }}
          onDragOver={onDragOver}
          onDragEnd={onDragEnd}
          onDragCancel={() => {
            setDragGroups(null);
            setDragged(null);
          }}
        >
          {lectures.length === 0 && sections.length === 0 && quizzes.length === 0 ? (
            <p className="rounded-box bg-base-200 p-6 text-center">{texts.noLectures}</p>
          ) : (
            <LooseLectures lectureIds={groups[0]!.lectureIds} titled={sections.length > 0} end={groupEnd(null)}>
              {groups[0]!.lectureIds.map(row)}
            </LooseLectures>
          )}
          <SortableContext items={sections.map((section) => sectionDragId(section._id))} strategy={verticalListSortingStrategy}>
            {sections.map((section, index) => (
              <EditorSection
                key={section._id}
                section={section}
                lectureIds={groups[index + 1]?.lectureIds ?? []}
                canStep={{ up: index > 0, down: index < sections.length - 1 }}
                onStep={(direction) => stepSection(section, direction)}
                onRename={async (title) => !('error' in (await renameSection({ courseId, sectionId: section._id, title })))}
                onDelete={() => void removeSection(section, index)}
                busy={renaming.isLoading || deleting.isLoading}
                end={groupEnd(section)}
              >
                {(groups[index + 1]?.lectureIds ?? []).map(row)}
              </EditorSection>
            ))}
          </SortableContext>
          <DragOverlay>
            {dragged && <div className="rounded-box border border-primary/40 bg-base-100 px-4 py-3 font-medium shadow-lg wrap-anywhere">{dragged.title}</div>}
          </DragOverlay>
        </DndContext>
      )}
      {answer.currentData && (
        <div className="flex justify-end">
          <Link to={editQuizLink(courseId)} className="btn btn-ghost btn-sm">
            <Plus />
            {quizEditorTexts.addQuizAtEnd}
          </Link>
        </div>
      )}
      {answer.currentData && <AddSectionForm courseId={courseId} />}
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}

/**
 * Where each quiz shows in the editor, read off the curriculum's one order (curriculumItems): right
 * after the lecture it follows, else at the end of its group (a section's end; the course's end is
 * the last group's). A lecture dragged elsewhere takes its quizzes along, as the server will.
 */
function placesOfQuizzes(sections: readonly Section[], lectures: readonly Lecture[], quizzes: readonly QuizSummary[]) {
  const afterLecture = new Map<string, QuizSummary[]>();
  const atEnd = new Map<string | null, QuizSummary[]>();
  let lastLecture: { id: string; sectionId: string | null } | null = null;
  for (const item of curriculumItems(sections, lectures, quizzes)) {
    if (item.kind === 'lecture') {
      lastLecture = { id: item.lecture._id, sectionId: item.sectionId };
      continue;
    }
    if (lastLecture !== null && lastLecture.sectionId === item.sectionId && item.quiz.afterLectureId === lastLecture.id)
      afterLecture.set(lastLecture.id, [...(afterLecture.get(lastLecture.id) ?? []), item.quiz]);
    else atEnd.set(item.sectionId, [...(atEnd.get(item.sectionId) ?? []), item.quiz]);
  }
  return { afterLecture, atEnd };
}

function Plus() {
  return (
    <svg viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" aria-hidden="true">
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}
