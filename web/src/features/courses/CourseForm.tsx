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

interface Props {
  /** The course being edited; none for a new one (then the thumbnail is required). */
  course?: Course;
  /** After the server saved it, with the course as it answered. */
  onSaved: (course: Course) => void;
}

/** A course's thumbnail, title, instructor, category and description: a new course's, or an existing one's to edit. */
export function CourseForm({ course: editing, onSaved }: Props) {
  const [thumbnail, setThumbnail] = useState<File>();
  const [refusal, setRefusal] = useState<string>();
  const preview = useObjectUrl(thumbnail);
  const [busy, setBusy] = useState(false);
  const [createCourse] = useCreateCourseMutation();
  const [updateCourse] = useUpdateCourseMutation();
  const thumbnailId = useId();
  const maxBytes = imageMaxBytes();

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
      const { course } = editing ? await updateCourse({ id: editing._id, form: body }).unwrap() : await createCourse(body).unwrap();
      onSaved(course);
    } catch {
      // The API client has shown the server's message.
    } finally {
      setBusy(false);
    }
  }

  const current = preview ?? editing?.thumbnail.secure_url;
  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
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
          <LimitedField label={LABELS.createdBy} name="createdBy" max={INSTRUCTOR_MAX} tooLong={messages.instructorTooLong} defaultValue={editing?.createdBy} />
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
  );
}
