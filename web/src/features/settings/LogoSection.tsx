import { answers } from '@lms/contract/answers';
import { messages } from '@lms/contract/messages';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import toast from 'react-hot-toast';
import { isServerError } from '../../lib/server-state';
import { useAppDispatch } from '../../lib/store-hooks';
import { uploadLogo, useRemoveLogoMutation } from './settings.api';
import { SettingsCard, type SectionProps } from './SettingsCard';
import { settingsTexts as texts } from './settings-texts';

/** The pictures the server takes as a logo (it judges the content; this only spares a pointless upload). */
const LOGO_TYPES = ['image/svg+xml', 'image/png', 'image/webp'];

/** The logo: its preview on both themes' backgrounds, an upload with progress, and Remove. */
export function LogoSection({ settings, onSaved }: Omit<SectionProps, 'saveLabel'>) {
  const dispatch = useAppDispatch();
  const [removeLogo, removal] = useRemoveLogoMutation();
  const picker = useRef<HTMLInputElement>(null);
  const upload = useRef<AbortController>(undefined);
  const [progress, setProgress] = useState<number>();
  const uploading = progress !== undefined;
  const { logo } = settings.site;

  // Leaving the page stops the upload.
  useEffect(() => () => upload.current?.abort(), []);

  async function onChoose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // The same file may be chosen again after a refusal.
    event.target.value = '';
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) {
      toast.error(answers.logoNotImage);
      return;
    }
    const form = new FormData();
    form.set('logo', file);
    const controller = new AbortController();
    upload.current = controller;
    setProgress(0);
    try {
      await dispatch(uploadLogo(form, { onProgress: setProgress, signal: controller.signal }));
      onSaved?.();
    } catch (error) {
      if ((error as Error).name === 'AbortError') toast(messages.uploadCancelled);
      else if (!isServerError(error)) throw error;
    } finally {
      if (upload.current === controller) upload.current = undefined;
      setProgress(undefined);
    }
  }

  async function onRemove() {
    if (!window.confirm(texts.removeLogoConfirm)) return;
    await removeLogo()
      .unwrap()
      .catch((error: unknown) => {
        if (!isServerError(error)) throw error;
      });
  }

  const percent = Math.round((progress ?? 0) * 100);
  return (
    <SettingsCard id="settings-logo" title={texts.logoTitle} intro={texts.logoIntro}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {logo ? (
          // On both themes' backgrounds: a logo drawn for one may vanish on the other.
          <figure className="grid w-full shrink-0 grid-cols-2 overflow-hidden rounded-box border border-base-300 sm:w-64">
            {(['light', 'dark'] as const).map((theme) => (
              <div key={theme} data-theme={theme} className="flex h-24 items-center justify-center bg-base-100 p-3">
                <img src={logo.url} alt={theme === 'light' ? texts.currentLogo : ''} className="max-h-16 max-w-full object-contain" />
              </div>
            ))}
          </figure>
        ) : (
          <div className="flex h-24 w-full shrink-0 items-center justify-center rounded-box border border-dashed border-base-300 px-4 text-center text-sm text-base-content/70 sm:w-64">
            {texts.noLogo}
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            // The card's one main action while there is no logo; a quiet one once there is.
            className={logo ? 'btn btn-outline' : 'btn btn-primary'}
            disabled={uploading}
            onClick={() => picker.current?.click()}
          >
            {logo ? texts.replaceLogo : texts.chooseLogo}
          </button>
          {logo && (
            <button
              type="button"
              className="btn btn-ghost text-error"
              disabled={uploading || removal.isLoading}
              aria-busy={removal.isLoading}
              onClick={() => void onRemove()}
            >
              {texts.removeLogo}
            </button>
          )}
          <input ref={picker} type="file" accept={LOGO_TYPES.join(',')} hidden aria-label={texts.chooseLogoFile} onChange={(event) => void onChoose(event)} />
        </div>
      </div>
      {uploading && (
        <div className="flex flex-col gap-1 text-sm">
          <div className="flex items-center justify-between gap-2">
            <span className="tabular-nums" aria-live="polite">
              {texts.uploading(percent)}
            </span>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => upload.current?.abort()}>
              {texts.cancelUpload}
            </button>
          </div>
          <progress className="progress progress-primary h-1.5 w-full" value={percent} max={100} aria-label={texts.uploadProgress} />
        </div>
      )}
    </SettingsCard>
  );
}
