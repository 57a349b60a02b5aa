import { AddLectureSchema } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useObjectUrl } from '../../components/FilePreview';
import { useCourse } from '../course/use-course';
import { addLecture } from './lecture.api';

/** Spec §2: title, description and a video; the upload shows its progress and can be cancelled; back one page on success. */
export default function AddLecturePage() {
  const course = useCourse();
  const navigate = useNavigate();
  const [video, setVideo] = useState<File>();
  const preview = useObjectUrl(video);
  const [progress, setProgress] = useState<number>();
  const upload = useRef<AbortController>(undefined);

  if (!course) return <p className="p-8 text-center" aria-live="polite">Loading the course…</p>;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fields = AddLectureSchema.safeParse({ title: form.get('title'), description: form.get('description') });
    if (!fields.success || !video) {
      toast.error(!video ? messages.allFieldsMandatory : fields.error!.issues[0]!.message);
      return;
    }
    if (!video.type.startsWith('video/')) {
      toast.error(messages.videoType);
      return;
    }
    const body = new FormData();
    body.set('title', fields.data.title);
    body.set('description', fields.data.description);
    body.set('lectures', video);
    upload.current = new AbortController();
    setProgress(0);
    try {
      await addLecture(course!._id, body, { onProgress: setProgress, signal: upload.current.signal });
      navigate(-1);
    } catch (error) {
      if ((error as Error).name === 'AbortError') toast('Upload cancelled');
    } finally {
      setProgress(undefined);
    }
  }

  const uploading = progress !== undefined;
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <section className="mx-auto max-w-2xl px-4 py-8">
      <div className="card bg-base-100 shadow-lg">
        <form className="card-body gap-4" onSubmit={onSubmit} noValidate>
          <div className="flex items-center gap-3">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => navigate(-1)} aria-label="Go back">
              ←
            </button>
            <h1 className="card-title text-2xl">Add new lecture</h1>
          </div>
          <p className="opacity-80">Course: {course.title}</p>
          <label className="form-control">
            <span className="label mb-1 block">Title</span>
            <input name="title" type="text" className="input w-full" maxLength={120} disabled={uploading} />
          </label>
          <label className="form-control">
            <span className="label mb-1 block">Description</span>
            <textarea name="description" className="textarea h-28 w-full" maxLength={5000} disabled={uploading} />
          </label>
          <label className="form-control">
            <span className="label mb-1 block">Video</span>
            <input
              name="lectures"
              type="file"
              accept="video/*"
              className="file-input w-full"
              disabled={uploading}
              onChange={(event) => setVideo(event.target.files?.[0])}
            />
          </label>
          {preview && <video src={preview} controls muted className="aspect-video w-full rounded-lg bg-black" aria-label="Preview of the chosen video" />}
          {uploading && (
            <div className="space-y-2">
              <progress className="progress progress-primary w-full" value={percent} max={100} aria-label="Upload progress" />
              <p aria-live="polite">Uploading… {percent}%</p>
              <button type="button" className="btn btn-outline btn-error" onClick={() => upload.current?.abort()}>
                Cancel upload
              </button>
            </div>
          )}
          <button type="submit" className="btn btn-primary" disabled={uploading}>
            Add new lecture
          </button>
        </form>
      </div>
    </section>
  );
}
