import type { BodyOf } from '@lms/contract/http';
import type { endpoints } from '@lms/contract/endpoints';
import type { Settings } from '@lms/contract/settings';
import { SettingsUpdateSchema } from '@lms/contract/settings';
import { useId, type FormEvent, type ReactNode } from 'react';
import toast from 'react-hot-toast';
import { isServerError } from '../../lib/server-state';
import { useUpdateSettingsMutation } from './settings.api';
import { settingsTexts as texts } from './settings-texts';

/** What each section of the settings is given: the settings as loaded, and, in the setup, what follows a save. */
export interface SectionProps {
  settings: Settings;
  /** After a successful save (the setup moves to its next step). */
  onSaved?: () => void;
  /** The save button's words, "Save" by default. */
  saveLabel?: string;
}

export type SettingsChange = BodyOf<typeof endpoints.settings.update>;

/**
 * Saves one section's fields, and only those: two admins editing different sections never undo each
 * other's change. Checked here first with the server's own rules, so a slip is said at once.
 */
export function useSaveSection(onSaved?: () => void) {
  const [update, { isLoading }] = useUpdateSettingsMutation();
  /** Whether it was saved. */
  async function save(change: SettingsChange): Promise<boolean> {
    const check = SettingsUpdateSchema.safeParse(change);
    if (!check.success) {
      toast.error(check.error.issues[0]!.message, { id: 'form-check' });
      return false;
    }
    try {
      await update(change).unwrap();
    } catch (error) {
      // The API client has already shown the server's message.
      if (!isServerError(error)) throw error;
      return false;
    }
    onSaved?.();
    return true;
  }
  return { save, busy: isLoading };
}

/**
 * Around a LimitedField: its label as the other fields' labels look (a bold legend), so a card that
 * mixes counted and plain fields reads as one form.
 */
export const COUNTED_LABELS = '[&_label.label]:text-sm [&_label.label]:font-semibold [&_label.label]:text-base-content';

interface CardProps {
  /** The anchor the page's section list links to. */
  id?: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  /** A form's card: its Save button submits it. Without, the card only shows (the logo, the legal pages). */
  onSubmit?: () => void;
  busy?: boolean;
  saveLabel?: string;
  /** Why Save is unavailable, shown beside it; Save is disabled while there is one. */
  blocked?: ReactNode;
  /** Quiet actions beside Save (e.g. back to the product's own values). */
  extraActions?: ReactNode;
}

/** One section of the settings: a card with its heading, fields and its own Save. */
export function SettingsCard({ id, title, intro, children, onSubmit, busy = false, saveLabel = texts.save, blocked, extraActions }: CardProps) {
  const headingId = useId();
  const blockedId = useId();
  const body = (
    <>
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-xl font-semibold">
          {title}
        </h2>
        {intro && <p className="text-sm text-base-content/80">{intro}</p>}
      </div>
      {children}
      {onSubmit && (
        <div className="flex flex-col gap-3 border-t border-base-300 pt-4 sm:flex-row sm:items-center sm:justify-end">
          {blocked && (
            <div id={blockedId} className="text-sm text-error sm:mr-auto">
              {blocked}
            </div>
          )}
          {extraActions}
          <button
            type="submit"
            className="btn btn-primary sm:min-w-28"
            disabled={busy || Boolean(blocked)}
            aria-busy={busy}
            aria-describedby={blocked ? blockedId : undefined}
          >
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {saveLabel}
          </button>
        </div>
      )}
    </>
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit?.();
  };
  return (
    <section id={id} aria-labelledby={headingId} className="scroll-mt-20 rounded-box border border-base-300 bg-base-100 shadow-sm">
      {onSubmit ? (
        <form noValidate onSubmit={submit} className="flex flex-col gap-5 p-4 sm:p-6">
          {body}
        </form>
      ) : (
        <div className="flex flex-col gap-5 p-4 sm:p-6">{body}</div>
      )}
    </section>
  );
}
