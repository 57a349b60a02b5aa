import { useId, useState, type FormEvent } from 'react';
import { useAddSectionMutation } from '../lectures';
import { curriculumTexts as texts } from './curriculum-texts';

/** A new section's title, and Add: the section comes after the course's last. */
export function AddSectionForm({ courseId }: { courseId: string }) {
  const inputId = useId();
  const [title, setTitle] = useState('');
  const [addSection, adding] = useAddSectionMutation();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (adding.isLoading) return;
    const result = await addSection({ courseId, title: title.trim() });
    if (!('error' in result)) setTitle('');
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="rounded-box border border-dashed border-base-content/25 p-3">
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
        {texts.newSection}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={inputId}
          className="input w-full sm:flex-1"
          value={title}
          placeholder={texts.newSectionPlaceholder}
          onChange={(event) => setTitle(event.target.value)}
          disabled={adding.isLoading}
        />
        <button type="submit" className="btn btn-outline btn-primary" disabled={adding.isLoading} aria-busy={adding.isLoading}>
          {adding.isLoading && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {texts.addSection}
        </button>
      </div>
    </form>
  );
}
