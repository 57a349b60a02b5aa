import { canonicalLanguage, LABEL_MAX, type Caption } from '@lms/contract/captions';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { fileSize } from '../../lib/components/image-file';
import { isServerError } from '../../lib/server-state';
import { useAppDispatch } from '../../lib/store-hooks';
import { addCaption } from './captions.api';
import { captionsTexts as texts } from './captions-texts';
import { COMMON_LANGUAGES, suggestedLabel } from './caption-languages';
import { UploadProgress } from './UploadProgress';

/** What the file picker offers: the server reads the content itself, this only steers the choice. */
export const CAPTION_ACCEPT = '.vtt,.srt,text/vtt';
const OTHER = 'other';
const isCaptionFile = (name: string) => /\.(vtt|srt)$/i.test(name);

interface Props {
  courseId: string;
  lectureId: string;
  captions: readonly Caption[];
  maxBytes: number;
  onDone: (caption: Caption) => void;
  onCancel: () => void;
}

/**
 * A new language's captions: the file, its language (a list, or any tag under "Other…"), the label
 * viewers see (suggested from the language until the admin types their own) and whether they are
 * the default. Checked here first (kind, size, language, label); the server's refusal, which names
 * the broken line, is shown under the form as it comes.
 */
export function AddCaptionsForm({ courseId, lectureId, captions, maxBytes, onDone, onCancel }: Props) {
  const dispatch = useAppDispatch();
  const ids = useId();
  const firstField = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [choice, setChoice] = useState(() => COMMON_LANGUAGES.find((language) => !captions.some((caption) => caption.language === language.tag))?.tag ?? OTHER);
  const [otherTag, setOtherTag] = useState('');
  const [label, setLabel] = useState<string>();
  const [isDefault, setIsDefault] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const inFlight = useRef<AbortController>(undefined);
  useEffect(() => {
    firstField.current?.focus();
    return () => inFlight.current?.abort();
  }, []);

  const tag = choice === OTHER ? otherTag.trim() : choice;
  // The label follows the language until the admin writes one of their own.
  const shownLabel = label ?? (choice === OTHER ? suggestedLabel(otherTag) : (COMMON_LANGUAGES.find((language) => language.tag === choice)?.label ?? ''));
  const first = captions.length === 0;

  function check(): string | undefined {
    if (!file) return texts.chooseFile;
    if (!isCaptionFile(file.name)) return texts.wrongKind(file.name);
    if (file.size > maxBytes) return texts.tooLarge(fileSize(maxBytes), fileSize(file.size));
    const canonical = canonicalLanguage(tag);
    if (!canonical) return texts.badTag;
    const taken = captions.find((caption) => caption.language.toLowerCase() === canonical.toLowerCase());
    if (taken) return texts.taken(taken.label);
    if (!shownLabel.trim()) return texts.labelMissing;
    return undefined;
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const refusal = check();
    setProblem(refusal);
    if (refusal || !file) return;
    const controller = new AbortController();
    inFlight.current = controller;
    setProgress(0);
    try {
      const answer = await dispatch(
        addCaption(
          { courseId, lectureId },
          { file, language: canonicalLanguage(tag)!, label: shownLabel.trim(), isDefault: first || isDefault },
          { onProgress: setProgress, signal: controller.signal },
        ),
      );
      onDone(answer.caption);
    } catch (error) {
      if ((error as Error).name === 'AbortError') toast(texts.uploadCancelled);
      else if (isServerError(error)) setProblem(error.message);
      else throw error;
    } finally {
      if (inFlight.current === controller) inFlight.current = undefined;
      setProgress(undefined);
    }
  }

  const busy = progress !== undefined;
  const field = (name: string) => `${ids}-${name}`;
  return (
    <form
      noValidate
      aria-labelledby={field('heading')}
      className="mt-3 space-y-3 rounded-box border border-base-content/15 bg-base-200/60 p-3 sm:p-4"
      onSubmit={(event) => void onSubmit(event)}
    >
      <h4 id={field('heading')} className="font-semibold">
        {texts.addHeading}
      </h4>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <label htmlFor={field('file')} className="mb-1 block text-sm font-medium">
            {texts.file}
          </label>
          <input
            ref={firstField}
            id={field('file')}
            type="file"
            accept={CAPTION_ACCEPT}
            className="file-input file-input-sm w-full"
            aria-describedby={field('file-hint')}
            disabled={busy}
            onChange={(event) => {
              setFile(event.target.files?.[0]);
              setProblem(undefined);
            }}
          />
          <p id={field('file-hint')} className="mt-1 text-xs text-base-content/70">
            {texts.fileHint(fileSize(maxBytes))}
          </p>
        </div>
        <div>
          <label htmlFor={field('language')} className="mb-1 block text-sm font-medium">
            {texts.language}
          </label>
          <select id={field('language')} className="select select-sm w-full" value={choice} disabled={busy} onChange={(event) => setChoice(event.target.value)}>
            {COMMON_LANGUAGES.map((language) => (
              <option key={language.tag} value={language.tag} disabled={captions.some((caption) => caption.language === language.tag)}>
                {language.name} ({language.tag})
              </option>
            ))}
            <option value={OTHER}>{texts.otherLanguage}</option>
          </select>
          {choice === OTHER && (
            <div className="mt-2">
              <label htmlFor={field('tag')} className="mb-1 block text-sm font-medium">
                {texts.languageTag}
              </label>
              <input
                id={field('tag')}
                className="input input-sm w-full"
                value={otherTag}
                autoCapitalize="off"
                autoCorrect="off"
                spellCheck={false}
                maxLength={35}
                disabled={busy}
                aria-describedby={field('tag-hint')}
                onChange={(event) => setOtherTag(event.target.value)}
              />
              <p id={field('tag-hint')} className="mt-1 text-xs text-base-content/70">
                {texts.languageTagHint}
              </p>
            </div>
          )}
        </div>
        <div>
          <label htmlFor={field('label')} className="mb-1 block text-sm font-medium">
            {texts.label}
          </label>
          <input
            id={field('label')}
            className="input input-sm w-full"
            value={shownLabel}
            maxLength={LABEL_MAX}
            disabled={busy}
            aria-describedby={field('label-hint')}
            onChange={(event) => setLabel(event.target.value)}
          />
          <p id={field('label-hint')} className="mt-1 text-xs text-base-content/70">
            {texts.labelHint}
          </p>
        </div>
      </div>
      <label className="flex cursor-pointer items-center gap-2 text-sm">
        <input
          type="checkbox"
          className="checkbox checkbox-sm checkbox-primary"
          checked={first || isDefault}
          disabled={first || busy}
          aria-describedby={first ? field('default-hint') : undefined}
          onChange={(event) => setIsDefault(event.target.checked)}
        />
        {texts.makeDefaultField}
      </label>
      {first && (
        <p id={field('default-hint')} className="-mt-2 pl-7 text-xs text-base-content/70">
          {texts.firstIsDefault}
        </p>
      )}

      {progress !== undefined && file && <UploadProgress name={file.name} fraction={progress} onCancel={() => inFlight.current?.abort()} />}
      {problem && (
        <p role="alert" className="rounded-field border border-error/40 bg-error/10 px-3 py-2 text-sm wrap-anywhere text-base-content">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn btn-ghost btn-sm" disabled={busy} onClick={onCancel}>
          {texts.cancel}
        </button>
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          {texts.upload}
        </button>
      </div>
    </form>
  );
}
