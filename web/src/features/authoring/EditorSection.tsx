import { TITLE_MAX } from '@lms/contract/courses';
import type { Section } from '@lms/contract/lectures';
import { messages } from '@lms/contract/messages';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { LimitedField } from '../../lib/components/LimitedField';
import { curriculumTexts as texts } from './curriculum-texts';
import { DragHandle, StepButtons } from './EditorControls';

/** The drop target of a group's lectures: dropped there, a lecture joins the group (at its end, or where it is let go). */
export const groupDropId = (sectionId: string | null) => `group:${sectionId ?? 'none'}`;
export const sectionDragId = (sectionId: string) => `section:${sectionId}`;

/** What a group shows after its lectures: the quizzes at its end, and the way to add one there. */
export interface GroupEnd {
  quizzes?: ReactNode;
  addQuiz?: ReactNode;
}

/** A group's list of lectures, which lectures may be dragged into (even when it is empty), then the quizzes at its end. */
function GroupList({ sectionId, lectureIds, end, children }: { sectionId: string | null; lectureIds: string[]; end?: GroupEnd; children: ReactNode }) {
  const empty = sectionId === null ? texts.noLooseLectures : texts.emptySection;
  const { setNodeRef, isOver } = useDroppable({ id: groupDropId(sectionId), data: { type: 'group', sectionId } });
  return (
    <SortableContext items={lectureIds} strategy={verticalListSortingStrategy}>
      <ol ref={setNodeRef} className={`min-h-12 divide-y divide-base-content/10 ${isOver && lectureIds.length === 0 ? 'bg-primary/5' : ''}`}>
        {lectureIds.length === 0 ? <li className="px-4 py-3 text-sm text-base-content/70">{empty}</li> : children}
        {end?.quizzes}
      </ol>
      {end?.addQuiz && <div className="border-t border-base-content/10 px-2 py-1.5 sm:px-3">{end.addQuiz}</div>}
    </SortableContext>
  );
}

/** The lectures of no section, listed first: a heading only once the course has sections. */
export function LooseLectures({ lectureIds, titled, end, children }: { lectureIds: string[]; titled: boolean; end?: GroupEnd; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={titled ? headingId : undefined} className="overflow-hidden rounded-box border border-base-content/15">
      {titled && (
        <div className="border-b border-base-content/15 bg-base-200 px-3 py-2">
          <h3 id={headingId} className="font-semibold">
            {texts.noSection}
          </h3>
          <p className="text-xs text-base-content/70">{texts.noSectionHint}</p>
        </div>
      )}
      <GroupList sectionId={null} lectureIds={lectureIds} end={end}>
        {children}
      </GroupList>
    </section>
  );
}

/**
 * A section of the editor: its handle, title and size, Move up/down, Rename and Delete, then its
 * lectures. Renaming happens in place.
 */
export function EditorSection({
  section,
  lectureIds,
  canStep,
  onStep,
  onRename,
  onDelete,
  busy,
  end,
  children,
}: {
  section: Section;
  lectureIds: string[];
  canStep: { up: boolean; down: boolean };
  onStep: (direction: 'up' | 'down') => void;
  /** Resolves true once renamed; false keeps the form open. */
  onRename: (title: string) => Promise<boolean>;
  onDelete: () => void;
  busy: boolean;
  /** The quizzes at the section's end, and its "Add quiz". */
  end?: GroupEnd;
  children: ReactNode;
}) {
  const headingId = useId();
  const [renaming, setRenaming] = useState(false);
  const renameForm = useRef<HTMLFormElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  // Into the title when the form opens; back to Rename when it closes.
  useEffect(() => {
    if (renaming) renameForm.current?.querySelector('input')?.focus();
    else if (wasRenaming.current) renameButton.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);
  const { listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: sectionDragId(section._id),
    data: { type: 'section' },
  });

  async function rename(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const title = String(new FormData(event.currentTarget).get('title') ?? '').trim();
    if (title === section.title) return setRenaming(false);
    if (await onRename(title)) setRenaming(false);
  }

  return (
    <section
      ref={setNodeRef}
      aria-labelledby={headingId}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`overflow-hidden rounded-box border border-base-content/15 bg-base-100 ${isDragging ? 'relative z-10 opacity-40' : ''}`}
    >
      <div className="border-b border-base-content/15 bg-base-200 px-2 py-2 sm:px-3">
        <div className="flex items-start gap-2">
          <DragHandle label={texts.dragSection(section.title)} setRef={setActivatorNodeRef} listeners={listeners} />
          <div className="min-w-0 flex-1">
            <h3 id={headingId} className="font-semibold wrap-anywhere">
              {section.title}
            </h3>
            <p className="text-xs text-base-content/70">{texts.lectureCount(lectureIds.length)}</p>
          </div>
        </div>
        {renaming ? (
          <form
            ref={renameForm}
            noValidate
            aria-label={texts.renameSection(section.title)}
            className="mt-2 space-y-2"
            onSubmit={(event) => void rename(event)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setRenaming(false);
            }}
          >
            <LimitedField
              label={texts.sectionTitle}
              name="title"
              max={TITLE_MAX}
              tooLong={messages.titleTooLong}
              defaultValue={section.title}
              disabled={busy}
            />
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setRenaming(false)} disabled={busy}>
                {texts.cancel}
              </button>
              <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
                {texts.save}
              </button>
            </div>
          </form>
        ) : (
          <div className="mt-1.5 flex flex-wrap items-center gap-1 sm:pl-9">
            <StepButtons focusKey={`section:${section._id}`} name={section.title} canStep={canStep} onStep={onStep} />
            <button
              ref={renameButton}
              type="button"
              className="btn btn-ghost btn-xs"
              aria-label={texts.renameSection(section.title)}
              onClick={() => setRenaming(true)}
            >
              {texts.rename}
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-xs text-error"
              aria-label={texts.deleteSectionOf(section.title)}
              onClick={onDelete}
              disabled={busy}
            >
              {texts.deleteSection}
            </button>
          </div>
        )}
      </div>
      <GroupList sectionId={section._id} lectureIds={lectureIds} end={end}>
        {children}
      </GroupList>
    </section>
  );
}
