import { LEGAL_PAGE_MAX, type LegalPage } from '@lms/contract/settings';
import { useDeferredValue, useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { isServerError } from '../../lib/server-state';
import { legalTexts } from './legal-texts';
import { useResetLegalPageMutation, useUpdateLegalPageMutation } from './legal.api';
import { LegalArticle } from './LegalPage';

interface LegalPageEditorProps {
  page: LegalPage;
  title: string;
  markdown: string;
  template: boolean;
  onClose: () => void;
}

/**
 * The administrator's editor of a legal page, in place of the page: the Markdown on one side and,
 * beside it (below it on a phone), the page as visitors will see it, drawn by the same renderer.
 * Save keeps the text; "Back to the template" drops it for the starting one, after a confirmation.
 */
export default function LegalPageEditor({ page, title, markdown, template, onClose }: LegalPageEditorProps) {
  const textId = useId();
  const hintId = useId();
  const [text, setText] = useState(markdown);
  const preview = useDeferredValue(text);
  const [update, updating] = useUpdateLegalPageMutation();
  const [reset, resetting] = useResetLegalPageMutation();
  const busy = updating.isLoading || resetting.isLoading;
  const over = text.length - LEGAL_PAGE_MAX;

  async function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!text.trim()) {
      toast.error(legalTexts.empty, { id: 'form-check' });
      return;
    }
    if (over > 0) {
      toast.error(legalTexts.tooLong(LEGAL_PAGE_MAX), { id: 'form-check' });
      return;
    }
    try {
      await update({ page, markdown: text }).unwrap();
      onClose();
    } catch (error) {
      // The API client has shown the server's message; what was typed stays.
      if (!isServerError(error)) throw error;
    }
  }

  async function onReset() {
    if (!window.confirm(legalTexts.confirmBackToTemplate(title))) return;
    try {
      await reset(page).unwrap();
      onClose();
    } catch (error) {
      if (!isServerError(error)) throw error;
    }
  }

  return (
    <form noValidate onSubmit={(event) => void onSave(event)} className="mx-auto w-full max-w-7xl px-4 py-8 sm:py-10">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{legalTexts.editing(title)}</h1>
        <div className="flex flex-wrap gap-2">
          {!template && (
            <button type="button" className="btn btn-ghost btn-sm text-error" disabled={busy} onClick={() => void onReset()}>
              {legalTexts.backToTemplate}
            </button>
          )}
          <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={onClose}>
            {legalTexts.cancel}
          </button>
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy} aria-busy={updating.isLoading}>
            {updating.isLoading && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
            {legalTexts.save}
          </button>
        </div>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-2">
          <div className="flex items-baseline justify-between gap-3">
            <label htmlFor={textId} className="font-semibold">
              {legalTexts.text}
            </label>
            <span className={`text-xs tabular-nums ${over > 0 ? 'font-semibold text-error' : 'text-base-content/70'}`}>
              {text.length.toLocaleString('en-IN')}/{LEGAL_PAGE_MAX.toLocaleString('en-IN')}
            </span>
          </div>
          <textarea
            id={textId}
            aria-describedby={hintId}
            aria-invalid={over > 0 || undefined}
            className="textarea h-[60vh] min-h-72 w-full resize-y font-mono text-sm leading-relaxed"
            spellCheck
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <p id={hintId} className="text-xs text-base-content/70">
            {legalTexts.markdownHint}
          </p>
        </div>
        <section aria-label={legalTexts.preview} className="min-w-0">
          <p className="mb-2 font-semibold">{legalTexts.preview}</p>
          <div className="h-[60vh] min-h-72 overflow-y-auto rounded-box bg-base-100 p-5 ring-1 ring-base-300 sm:p-6">
            <LegalArticle markdown={preview} title={title} />
          </div>
        </section>
      </div>
    </form>
  );
}
