import { TITLE_MAX } from '@lms/contract/courses';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { fileSize } from '../../lib/components/image-file';
import { useAppDispatch } from '../../lib/store-hooks';
import { addLecture } from '../lectures';

export const bulkTexts = {
  heading: 'Add lectures',
  intro: 'Drop several videos at once: each becomes a lecture titled from its file name, in the order of the names. You can rename them afterwards.',
  drop: 'Drop videos here',
  or: 'or',
  choose: 'Choose videos',
  notVideo: 'Not a video file',
  waiting: 'Waiting',
  uploading: (percent: number) => `Uploading ${percent}%`,
  added: 'Added',
  summary: (done: number, total: number) => `${done} of ${total} uploaded`,
};

type Upload = { id: number; file: File; title: string } & (
  { state: 'waiting' } | { state: 'uploading'; percent: number } | { state: 'added' } | { state: 'failed'; reason: string }
);

/**
 * A lecture's title from its file name: no extension, separators as spaces, the first letter
 * capitalised, one line within the title's limit. "02_closing-the-books.mp4" → "02 closing the books".
 */
export function titleFromFileName(name: string): string {
  const base = name.replace(/\.[^.]*$/, '') || name;
  const words = base
    .replace(/[\s_.-]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
  const title = (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, TITLE_MAX).trim();
  return title || 'Untitled lecture';
}

const byName = (a: File, b: File) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });

/**
 * Several videos dropped (or chosen) at once onto a course: uploaded one after another, each as a
 * lecture titled from its file name (the name itself is its description until the admin writes one),
 * with a progress bar per file. A failed upload adds nothing: the server keeps no half-made lecture.
 */
export function BulkUpload({ courseId }: { courseId: string }) {
  const dispatch = useAppDispatch();
  const inputId = useId();
  const headingId = useId();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const nextId = useRef(0);
  const running = useRef(false);
  /** The upload in flight; leaving the page stops it. */
  const current = useRef<AbortController>(undefined);
  const busy = uploads.some((upload) => upload.state === 'waiting' || upload.state === 'uploading');

  useEffect(() => () => current.current?.abort(), []);
  useEffect(() => {
    if (!busy) return;
    // Closing or reloading the tab mid-upload: the browser's own "Leave site?" question.
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [busy]);

  const update = (id: number, change: Partial<Upload> & Pick<Upload, 'state'>) =>
    setUploads((list) => list.map((upload) => (upload.id === id ? ({ ...upload, ...change } as Upload) : upload)));

  /** Uploads what waits, one file at a time, until nothing does: a second drop joins the queue. */
  async function drain(queue: Upload[]) {
    if (running.current) return;
    running.current = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { id, file, title } = next;
        const form = new FormData();
        form.set('title', title);
        form.set('description', file.name);
        form.set('lectures', file);
        const controller = new AbortController();
        current.current = controller;
        update(id, { state: 'uploading', percent: 0 });
        try {
          await dispatch(
            addLecture(courseId, form, {
              quiet: true,
              signal: controller.signal,
              onProgress: (fraction) => update(id, { state: 'uploading', percent: Math.round(fraction * 100) }),
            }),
          );
          update(id, { state: 'added' });
        } catch (error) {
          if (controller.signal.aborted) return;
          update(id, { state: 'failed', reason: (error as { message?: string }).message ?? String(error) });
        }
      }
    } finally {
      running.current = false;
      current.current = undefined;
    }
  }

  const pending = useRef<Upload[]>([]);
  function add(files: File[]) {
    const added = [...files].sort(byName).map((file): Upload => {
      const id = nextId.current++;
      const title = titleFromFileName(file.name);
      return file.type.startsWith('video/') ? { id, file, title, state: 'waiting' } : { id, file, title, state: 'failed', reason: bulkTexts.notVideo };
    });
    setUploads((list) => [...list, ...added]);
    pending.current.push(...added.filter((upload) => upload.state === 'waiting'));
    void drain(pending.current);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    add([...event.dataTransfer.files]);
  }

  const done = uploads.filter((upload) => upload.state === 'added').length;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <div>
        <h2 id={headingId} className="text-lg font-semibold">
          {bulkTexts.heading}
        </h2>
        <p className="text-sm text-base-content/80">{bulkTexts.intro}</p>
      </div>
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="bulk-drop"
        className={`flex flex-col items-center justify-center gap-2 rounded-box border-2 border-dashed px-4 py-8 text-center transition ${dragging ? 'border-primary bg-primary/5' : 'border-base-content/25 bg-base-200/50'}`}
      >
        <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
          <path d="M12 16V4M7 9l5-5 5 5M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
        </svg>
        <p className="font-medium">{bulkTexts.drop}</p>
        <p className="text-sm text-base-content/70">{bulkTexts.or}</p>
        <label htmlFor={inputId} className="btn btn-sm btn-outline">
          {bulkTexts.choose}
        </label>
        <input
          id={inputId}
          type="file"
          accept="video/*"
          multiple
          className="sr-only"
          onChange={(event) => {
            add([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = '';
          }}
        />
      </div>
      {uploads.length > 0 && (
        <div className="flex flex-col gap-2">
          <p className="text-sm text-base-content/70" aria-live="polite">
            {bulkTexts.summary(done, uploads.length)}
          </p>
          <ul className="flex flex-col gap-2">
            {uploads.map((upload) => (
              <li key={upload.id} className="rounded-field border border-base-300 px-3 py-2">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="min-w-0 font-medium wrap-anywhere">{upload.title}</span>
                  <span className="shrink-0 text-xs text-base-content/70 tabular-nums">{fileSize(upload.file.size)}</span>
                </div>
                <UploadState upload={upload} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

function UploadState({ upload }: { upload: Upload }) {
  if (upload.state === 'failed')
    return (
      <p role="alert" className="mt-1 text-xs text-error wrap-anywhere">
        {upload.reason}
      </p>
    );
  if (upload.state === 'added')
    return (
      <p className="mt-1 flex items-center gap-1.5 text-xs text-base-content/70">
        <span className="size-2 rounded-full bg-success" aria-hidden="true" />
        {bulkTexts.added}
      </p>
    );
  const percent = upload.state === 'uploading' ? upload.percent : 0;
  const label = upload.state === 'uploading' ? bulkTexts.uploading(percent) : bulkTexts.waiting;
  return (
    <div className="mt-1 flex items-center gap-2 text-xs">
      <span className="w-28 shrink-0 tabular-nums" aria-hidden="true">
        {label}
      </span>
      <progress className="progress progress-primary h-1.5 w-full" value={percent} max={100} aria-label={`${upload.title}: ${label}`} />
    </div>
  );
}
