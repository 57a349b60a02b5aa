import { CreateCourseSchema, THUMBNAIL_ACCEPT, UpdateCourseSchema, type Course } from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { useObjectUrl } from '../../components/FilePreview';
import { createCourse, updateCourse } from './course.api';

/**
 * Spec §2: a new course (thumbnail, title, instructor, category, description) → /courses.
 * At /course/edit with a course passed along, the same form edits it (the thumbnail optional) → the dashboard.
 */
export default function CreateCoursePage() {
  const navigate = useNavigate();
  const location = useLocation();
  const editing = location.pathname === paths.editCourse ? (location.state as Course | null) : null;
  const [thumbnail, setThumbnail] = useState<File>();
  const preview = useObjectUrl(thumbnail);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = Object.fromEntries(['title', 'description', 'category', 'createdBy'].map((name) => [name, String(form.get(name) ?? '')]));
    const fields = (editing ? UpdateCourseSchema : CreateCourseSchema).safeParse(input);
    if (!fields.success || (!editing && !thumbnail)) {
      toast.error(fields.success ? messages.allFieldsMandatory : fields.error.issues[0]!.message);
      return;
    }
    const body = new FormData();
    for (const [name, value] of Object.entries(fields.data)) if (value !== undefined) body.set(name, value);
    if (thumbnail) body.set('thumbnail', thumbnail);
    setBusy(true);
    try {
      if (editing) {
        await updateCourse(editing._id, body);
        navigate(paths.dashboard);
      } else {
        await createCourse(body);
        navigate(paths.courses);
      }
    } catch {
      // The API client has shown the server's message.
    } finally {
      setBusy(false);
    }
  }

  if (location.pathname === paths.editCourse && !editing) {
    return (
      <p className="p-8 text-center">
        Choose a course to edit from the <a className="link" href={paths.dashboard}>dashboard</a>.
      </p>
    );
  }
  const current = preview ?? editing?.thumbnail.secure_url;
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="card bg-base-100 shadow-lg">
        <form className="card-body gap-4" onSubmit={onSubmit} noValidate>
          <h1 className="card-title text-2xl">{editing ? 'Edit course' : 'Create new course'}</h1>
          <div className="grid gap-4 md:grid-cols-2">
            <div className="space-y-4">
              <div className="flex aspect-video w-full items-center justify-center overflow-hidden rounded-lg border border-dashed border-base-content/30 bg-base-200">
                {current ? <img src={current} alt="Preview of the thumbnail" className="h-full w-full object-cover" /> : <span className="opacity-70">Upload your course thumbnail</span>}
              </div>
              <label className="form-control block">
                <span className="label mb-1 block">Course thumbnail</span>
                <input name="thumbnail" type="file" accept={THUMBNAIL_ACCEPT} className="file-input w-full" onChange={(event) => setThumbnail(event.target.files?.[0])} />
              </label>
              <label className="form-control block">
                <span className="label mb-1 block">Course title</span>
                <input name="title" type="text" className="input w-full" defaultValue={editing?.title} maxLength={120} />
              </label>
            </div>
            <div className="space-y-4">
              <label className="form-control block">
                <span className="label mb-1 block">Course instructor</span>
                <input name="createdBy" type="text" className="input w-full" defaultValue={editing?.createdBy} maxLength={60} />
              </label>
              <label className="form-control block">
                <span className="label mb-1 block">Course category</span>
                <input name="category" type="text" className="input w-full" defaultValue={editing?.category} maxLength={60} />
              </label>
              <label className="form-control block">
                <span className="label mb-1 block">Course description</span>
                <textarea name="description" className="textarea h-32 w-full" defaultValue={editing?.description} maxLength={5000} />
              </label>
            </div>
          </div>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {editing ? 'Save changes' : 'Create course'}
          </button>
        </form>
      </div>
    </section>
  );
}
