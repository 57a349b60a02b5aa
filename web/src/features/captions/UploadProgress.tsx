import { captionsTexts as texts } from './captions-texts';

/** A caption file on its way up: the bar, the percentage said to screen readers as it moves, and a cancel. */
export function UploadProgress({ name, fraction, onCancel }: { name: string; fraction: number; onCancel: () => void }) {
  const percent = Math.round(fraction * 100);
  return (
    <div className="space-y-1">
      <progress className="progress progress-primary w-full" value={percent} max={100} aria-label={texts.uploadProgress} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p aria-live="polite" className="min-w-0 text-sm wrap-anywhere">
          {texts.uploading(name, percent)}
        </p>
        <button type="button" className="btn btn-ghost btn-xs text-error" onClick={onCancel}>
          {texts.cancelUpload}
        </button>
      </div>
    </div>
  );
}
