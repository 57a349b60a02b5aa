import { answers } from '@lms/contract/answers';
import {
  AA_CONTRAST,
  contrastProblems,
  contrastRatio,
  pageContrast,
  HEX_COLOUR,
  ratioText,
  suggestPair,
  type BrandPair,
  type ThemeName,
} from '@lms/contract/contrast';
import { useId, useState, type CSSProperties } from 'react';
import { SettingsCard, useSaveSection, type SectionProps } from './SettingsCard';
import { settingsTexts as texts } from './settings-texts';

const THEMES: ThemeName[] = ['light', 'dark'];
/** Where the colour starts when the site still has the product's own: near the product's indigo. */
const STARTING_COLOUR = '#4f46e5';

const isColour = (value: string) => HEX_COLOUR.test(value);
const pairIsColours = (pair: BrandPair) => isColour(pair.primary) && isColour(pair.content);

/**
 * The brand colour: one colour chosen, a pair (the colour, text on it) proposed for each theme, each
 * editable, with both contrast ratios and a live preview of each theme. Save waits until both
 * themes read at AA, as the server requires; "Use the product's colours" goes back to none.
 */
export function BrandSection({ settings, onSaved, saveLabel }: SectionProps) {
  const saved = settings.site.brand;
  const { save, busy } = useSaveSection(onSaved);
  const [base, setBase] = useState(saved?.light.primary ?? STARTING_COLOUR);
  const [pairs, setPairs] = useState<Record<ThemeName, BrandPair>>(() =>
    saved ? { light: saved.light, dark: saved.dark } : { light: suggestPair('light', STARTING_COLOUR), dark: suggestPair('dark', STARTING_COLOUR) },
  );

  function onBase(value: string) {
    setBase(value);
    if (isColour(value)) setPairs({ light: suggestPair('light', value.toLowerCase()), dark: suggestPair('dark', value.toLowerCase()) });
  }

  const allColours = THEMES.every((theme) => pairIsColours(pairs[theme]));
  const problems = allColours ? THEMES.flatMap((theme) => contrastProblems(theme, pairs[theme])) : [];
  const blocked = !allColours ? (
    answers.colourInvalid
  ) : problems.length > 0 ? (
    <>
      <p className="font-semibold">{texts.cannotSave}</p>
      <ul className="list-inside list-disc">
        {problems.map((problem) => (
          <li key={`${problem.theme}-${problem.pair}`}>{answers.contrastTooLow(problem.theme, problem.pair, ratioText(problem.ratio))}</li>
        ))}
      </ul>
    </>
  ) : undefined;

  const lower = (pair: BrandPair) => ({ primary: pair.primary.toLowerCase(), content: pair.content.toLowerCase() });
  return (
    <SettingsCard
      id="settings-brand"
      title={texts.brandTitle}
      intro={texts.brandIntro}
      busy={busy}
      saveLabel={saveLabel}
      blocked={blocked}
      onSubmit={() => void save({ brand: { light: lower(pairs.light), dark: lower(pairs.dark) } })}
      extraActions={
        saved && (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void save({ brand: null })}>
            {texts.useProductColours}
          </button>
        )
      }
    >
      <div className="flex flex-col gap-1">
        <ColourField label={texts.brandColour} value={base} onChange={onBase} hint={texts.brandColourHint} />
        {!saved && <p className="text-sm text-base-content/80">{texts.usingProductColours}</p>}
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {THEMES.map((theme) => (
          <ThemePanel key={theme} theme={theme} pair={pairs[theme]} onChange={(pair) => setPairs((current) => ({ ...current, [theme]: pair }))} />
        ))}
      </div>
    </SettingsCard>
  );
}

/** One theme's pair: its preview, its two colours and how each reads. */
function ThemePanel({ theme, pair, onChange }: { theme: ThemeName; pair: BrandPair; onChange: (pair: BrandPair) => void }) {
  const readable = pairIsColours(pair);
  const ratios = readable
    ? [
        { label: texts.ratioOnButton, ratio: contrastRatio(pair.primary, pair.content) },
        { label: texts.ratioOnPage, ratio: pageContrast(theme, pair.primary) },
      ]
    : [];
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-box border border-base-300 p-3 sm:p-4">
      <legend className="px-1 font-semibold">{texts.themeName[theme]}</legend>
      <Preview theme={theme} pair={readable ? pair : undefined} />
      <div className="grid gap-3 sm:grid-cols-2">
        <ColourField label={texts.primary} value={pair.primary} onChange={(primary) => onChange({ ...pair, primary })} />
        <ColourField label={texts.content} value={pair.content} onChange={(content) => onChange({ ...pair, content })} />
      </div>
      <ul className="flex flex-col gap-1 text-sm" aria-live="polite">
        {ratios.map(({ label, ratio }) => {
          const passes = ratio >= AA_CONTRAST;
          return (
            <li key={label} className="flex flex-wrap items-center justify-between gap-x-2">
              <span>{label}</span>
              <span className="flex items-center gap-1.5">
                <strong className="tabular-nums">{ratioText(ratio)}</strong>
                <span className={`size-2 rounded-full ${passes ? 'bg-success' : 'bg-error'}`} aria-hidden="true" />
                <span className={passes ? 'text-base-content/80' : 'font-semibold text-error'}>
                  {passes ? texts.passes : `${texts.fails}, ${texts.ratioNeeded}`}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/** A filled button, a link and a badge, painted with the pair on the theme's own background. */
function Preview({ theme, pair }: { theme: ThemeName; pair?: BrandPair }) {
  const style = pair ? ({ '--color-primary': pair.primary, '--color-primary-content': pair.content } as CSSProperties) : undefined;
  return (
    <div
      data-theme={theme}
      style={style}
      role="group"
      aria-label={texts.previewOf(texts.themeName[theme])}
      className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 text-base-content"
    >
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm">{texts.previewText}</span>
        <span className="badge badge-primary badge-sm">{texts.previewBadge}</span>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className="btn btn-primary btn-sm pointer-events-none">{texts.previewButton}</span>
        <span className="link link-primary text-sm">{texts.previewLink}</span>
      </div>
    </div>
  );
}

/** A colour, as a picker and as #rrggbb text (which a keyboard or a paste reaches more easily). */
function ColourField({ label, value, onChange, hint }: { label: string; value: string; onChange: (value: string) => void; hint?: string }) {
  const id = useId();
  const valid = isColour(value);
  return (
    <div className="fieldset min-w-0 py-0">
      <label htmlFor={id} className="fieldset-legend pt-0 text-sm">
        {label}
      </label>
      <div className="flex w-full max-w-xs items-center gap-2">
        <input
          type="color"
          aria-label={texts.picker(label)}
          value={valid ? value.toLowerCase() : '#000000'}
          onChange={(event) => onChange(event.target.value)}
          className="h-10 w-11 shrink-0 cursor-pointer rounded-field border border-base-300 bg-base-100 p-1"
        />
        <input
          id={id}
          className={`input min-w-0 flex-1 font-mono ${valid ? '' : 'input-error'}`}
          value={value}
          onChange={(event) => onChange(event.target.value.trim())}
          spellCheck={false}
          autoComplete="off"
          maxLength={7}
          aria-invalid={!valid || undefined}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
      </div>
      {hint && (
        <p id={`${id}-hint`} className="label whitespace-normal">
          {hint}
        </p>
      )}
    </div>
  );
}
