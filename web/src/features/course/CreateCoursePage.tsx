import {
  CATEGORY_MAX,
  CreateCourseSchema,
  DESCRIPTION_MAX,
  INSTRUCTOR_MAX,
  THUMBNAIL_ACCEPT,
  TITLE_MAX,
  UpdateCourseSchema,
  type Course,
} from '@lms/contract/courses';
import { messages } from '@lms/contract/messages';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '../../app/paths';
import { usePageTitle } from '../../app/use-page-title';
import { useObjectUrl } from '../../components/FilePreview';
import { isImageOf, showFileIn } from '../../components/image-file';
import { LimitedField } from '../../components/LimitedField';
import { useCreateCourseMutation, useUpdateCourseMutation } from './course.api';

/**
 * Spec §2: a new course (thumbnail, title, instructor, category, description) → /courses.
 * At /course/edit with a course passed along, the same form edits it (the thumbnail optional) → the dashboard.
 */
export default function CreateCoursePage() {
  const navigate = useNavigate();
  const location = useLocation();
  const editing = location.pathname === paths.editCourse ? (location.state as Course | null) : null;
  const [thumbnail, setThumbnail] = useState<File>();
  const [refusal, setRefusal] = useState<string>();
  const preview = useObjectUrl(thumbnail);
  const [busy, setBusy] = useState(false);
  const [createCourse] = useCreateCourseMutation();
  const [updateCourse] = useUpdateCourseMutation();
  const thumbnailId = useId();
  usePageTitle(location.pathname === paths.editCourse ? 'Edit course' : 'Create new course');

  /** A picked file that is not a jpeg or png is refused here and now; the previous choice stays. */
  async function onPickThumbnail(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) {
      // The picker was cancelled: keep what was chosen before.
      showFileIn(input, thumbnail);
      return;
    }
    if (await isImageOf(file, ['jpeg', 'png'])) {
      setRefusal(undefined);
      setThumbnail(file);
    } else {
      setRefusal(messages.pickedFileRefused(file.name, messages.thumbnailType));
      showFileIn(input, thumbnail);
    }
  }

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
        await updateCourse({ id: editing._id, form: body }).unwrap();
        navigate(paths.dashboard);
      } else {
        await createCourse(body).unwrap();
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
        Choose a course to edit from the{' '}
        <Link className="link link-primary" to={paths.dashboard}>
          dashboard
        </Link>
        .
      </p>
    );
  }
  const current = preview ?? editing?.thumbnail.secure_url;
  return (
    <section className="mx-auto max-w-3xl px-4 py-8">
      <div className="card bg-base-100 shadow-lg ring-1 ring-base-content/10">
        <form className="card-body gap-4" onSubmit={onSubmit} noValidate>
          <h1 className="card-title text-2xl">{editing ? 'Edit course' : 'Create new course'}</h1>
          <div className="grid gap-4 md:grid-cols-2">
            <div className="space-y-4">
              <div className="flex aspect-video w-full items-center justify-center overflow-hidden rounded-lg border border-dashed border-base-content/30 bg-base-200">
                {current ? (
                  <img src={current} alt="Preview of the thumbnail" width={640} height={360} className="h-full w-full object-cover" />
                ) : (
                  <span className="px-4 text-center text-base-content/70">Upload your course thumbnail</span>
                )}
              </div>
              <div>
                <label htmlFor={thumbnailId} className="label mb-1 block">
                  Course thumbnail
                </label>
                <input
                  id={thumbnailId}
                  type="file"
                  accept={THUMBNAIL_ACCEPT}
                  className="file-input w-full"
                  aria-describedby={refusal ? `${thumbnailId}-refusal` : `${thumbnailId}-hint`}
                  aria-invalid={refusal ? true : undefined}
                  onChange={onPickThumbnail}
                />
                {refusal ? (
                  <p id={`${thumbnailId}-refusal`} role="alert" className="mt-1 text-sm break-words text-error">
                    {refusal}
                  </p>
                ) : (
                  <p id={`${thumbnailId}-hint`} className="mt-1 text-sm text-base-content/70">
                    {messages.thumbnailHint}
                  </p>
                )}
              </div>
              <LimitedField label="Course title" name="title" max={TITLE_MAX} tooLong={messages.titleTooLong} defaultValue={editing?.title} />
            </div>
            <div className="space-y-4">
              <LimitedField label="Course instructor" name="createdBy" max={INSTRUCTOR_MAX} tooLong={messages.instructorTooLong} defaultValue={editing?.createdBy} />
              <LimitedField label="Course category" name="category" max={CATEGORY_MAX} tooLong={messages.categoryTooLong} defaultValue={editing?.category} />
              <LimitedField
                label="Course description"
                name="description"
                max={DESCRIPTION_MAX}
                tooLong={messages.descriptionTooLong}
                defaultValue={editing?.description}
                multiline
              />
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
