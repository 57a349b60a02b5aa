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
import { paths } from '../../lib/paths';
import { courseLink } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { useObjectUrl } from '../../lib/components/FilePreview';
import { fileSize, imageMaxBytes, isImageOf, showFileIn } from '../../lib/components/image-file';
import { LimitedField } from '../../lib/components/LimitedField';
import { missingFieldsText } from '../../lib/components/missing-fields';
import { useCreateCourseMutation, useUpdateCourseMutation } from './courses.api';

/** The fields' labels, in the form's order. */
const LABELS = {
  thumbnail: 'Course thumbnail',
  title: 'Course title',
  createdBy: 'Course instructor',
  category: 'Course category',
  description: 'Course description',
} as const;
/** What the check calls a field left empty: on a page about a course, "Course" goes without saying. */
const NAMES = { thumbnail: 'Thumbnail', title: 'Title', createdBy: 'Instructor', category: 'Category', description: 'Description' } as const;

/**
 * A new course (thumbnail, title, instructor, category, description). The admin lands
 * on the new course's lecture page, where its lectures are added, rather than on the spec's /courses:
 * a course without lectures is nothing to show the catalogue's visitors, nor the admin as done.
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
  const maxBytes = imageMaxBytes();
  usePageTitle(location.pathname === paths.editCourse ? 'Edit course' : 'Create new course');

  /** A picked file too large, or not a jpeg or png, is refused here and now, before any upload; the previous choice stays. */
  async function onPickThumbnail(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) {
      // The picker was cancelled: keep what was chosen before.
      showFileIn(input, thumbnail);
      return;
    }
    const rule =
      file.size > maxBytes
        ? messages.imageTooLarge(fileSize(maxBytes), fileSize(file.size))
        : (await isImageOf(file, ['jpeg', 'png']))
          ? undefined
          : messages.thumbnailType;
    setRefusal(rule && messages.pickedFileRefused(file.name, rule));
    if (rule) showFileIn(input, thumbnail);
    else setThumbnail(file);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = Object.fromEntries(['title', 'description', 'category', 'createdBy'].map((name) => [name, String(form.get(name) ?? '')]));
    // Every field is required ('All fields are mandatory'); the text names what is missing.
    // A course being edited keeps its thumbnail unless another is chosen.
    const missing = missingFieldsText(messages.allFieldsMandatory, [
      ...(editing ? [] : [[NAMES.thumbnail, thumbnail] as const]),
      ...(['title', 'createdBy', 'category', 'description'] as const).map((name) => [NAMES[name], input[name]] as const),
    ]);
    if (missing) {
      toast.error(missing, { id: 'form-check' });
      return;
    }
    const fields = (editing ? UpdateCourseSchema : CreateCourseSchema).safeParse(input);
    if (!fields.success) {
      toast.error(fields.error.issues[0]!.message, { id: 'form-check' });
      return;
    }
    const body = new FormData();
    for (const [name, value] of Object.entries(fields.data)) if (value !== undefined) body.set(name, value);
    if (thumbnail) body.set('thumbnail', thumbnail);
    setBusy(true);
    try {
      if (editing) {
        await updateCourse({ id: editing._id, form: body }).unwrap();
        void navigate(paths.dashboard);
      } else {
        const { course } = await createCourse(body).unwrap();
        void navigate(courseLink(paths.courseLecture, course), { state: course });
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
        <form className="card-body gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
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
                  {LABELS.thumbnail}
                </label>
                <input
                  id={thumbnailId}
                  type="file"
                  accept={THUMBNAIL_ACCEPT}
                  className="file-input w-full"
                  aria-describedby={refusal ? `${thumbnailId}-refusal` : `${thumbnailId}-hint`}
                  aria-invalid={refusal ? true : undefined}
                  onChange={(event) => void onPickThumbnail(event)}
                />
                {refusal ? (
                  <p id={`${thumbnailId}-refusal`} role="alert" className="mt-1 text-sm break-words text-error">
                    {refusal}
                  </p>
                ) : (
                  <p id={`${thumbnailId}-hint`} className="mt-1 text-sm text-base-content/70">
                    {messages.thumbnailHint(fileSize(maxBytes))}
                  </p>
                )}
              </div>
              <LimitedField label={LABELS.title} name="title" max={TITLE_MAX} tooLong={messages.titleTooLong} defaultValue={editing?.title} />
            </div>
            <div className="space-y-4">
              <LimitedField
                label={LABELS.createdBy}
                name="createdBy"
                max={INSTRUCTOR_MAX}
                tooLong={messages.instructorTooLong}
                defaultValue={editing?.createdBy}
              />
              <LimitedField label={LABELS.category} name="category" max={CATEGORY_MAX} tooLong={messages.categoryTooLong} defaultValue={editing?.category} />
              <LimitedField
                label={LABELS.description}
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
