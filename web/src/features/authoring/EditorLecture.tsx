import type { Lecture } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { ReactNode } from 'react';
import { clockDuration, isoDuration } from '../../lib/format';
import { curriculumTexts as texts } from './curriculum-texts';
import { DragHandle, StepButtons } from './EditorControls';

/** What a lecture row of the editor may do, from the editor. */
export interface LectureRowActions {
  onStep: (direction: 'up' | 'down') => void;
  /** Whether it can go further each way (not at the course's very top or bottom). */
  canStep: { up: boolean; down: boolean };
  onEdit: () => void;
}

/**
 * One lecture of the curriculum editor: a handle to drag it (pointer and touch; keyboards use
 * the Move buttons), its number, title and length, its buttons, the slot for the course editor's
 * own controls, and the inline form while it is edited.
 */
export function EditorLecture({
  lecture,
  number,
  actions,
  editing,
  extra,
}: {
  lecture: Lecture;
  number: number;
  actions: LectureRowActions;
  /** The inline form, when this lecture is being edited. */
  editing: ReactNode;
  /** The course editor's controls for this lecture (replace the video, resources, delete). */
  extra: ReactNode;
}) {
  const { listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: lecture._id,
    data: { type: 'lecture' },
  });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`bg-base-100 ${isDragging ? 'relative z-10 opacity-40' : ''}`}
    >
      <div className="px-2 py-2.5 sm:px-3">
        <div className="flex items-start gap-2">
          <DragHandle label={texts.dragLecture(lecture.title)} setRef={setActivatorNodeRef} listeners={listeners} />
          <p className="min-w-0 flex-1 pt-0.5 font-medium wrap-anywhere">
            <span className="mr-1.5 text-base-content/70 tabular-nums">{number}.</span>
            {lecture.title}
          </p>
          {lecture.preview && <span className="mt-1 badge badge-sm shrink-0 badge-soft badge-primary">{messages.previewBadge}</span>}
          {lecture.duration !== null && (
            <time dateTime={isoDuration(lecture.duration)} className="shrink-0 pt-1 text-sm text-base-content/70 tabular-nums">
              {clockDuration(lecture.duration)}
            </time>
          )}
        </div>
        {/* Under the title from the row's edge on a phone (four buttons fit in 360 px), under the title's start on wider screens. */}
        <div className="mt-1.5 flex flex-wrap items-center gap-1 sm:pl-9">
          <StepButtons focusKey={`lecture:${lecture._id}`} name={lecture.title} canStep={actions.canStep} onStep={actions.onStep} />
          <button
            type="button"
            className={`btn btn-ghost btn-xs ${editing ? 'btn-active' : ''}`}
            data-focus={`lecture:${lecture._id}:edit`}
            aria-expanded={Boolean(editing)}
            aria-label={texts.editOf(lecture.title)}
            onClick={actions.onEdit}
          >
            {texts.edit}
          </button>
          {extra}
        </div>
      </div>
      {editing}
    </li>
  );
}
