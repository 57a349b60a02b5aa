import { answers } from '@lms/contract/answers';
import { FAQ_MAX, HERO_HEADLINE_MAX, HERO_TEXT_MAX, TESTIMONIALS_MAX, type FaqEntry, type Testimonial } from '@lms/contract/settings';
import { useId, useRef, useState, type TextareaHTMLAttributes } from 'react';
import { FormField } from '../../lib/components/FormField';
import { LimitedField } from '../../lib/components/LimitedField';
import { ListEditor, rowsOf, type Row } from './ListEditor';
import { COUNTED_LABELS, SettingsCard, useSaveSection, type SectionProps } from './SettingsCard';
import { settingsTexts as texts } from './settings-texts';

/** The home page's headline and intro text; empty keeps the product's own words. */
export function HeroSection({ settings, onSaved, saveLabel }: SectionProps) {
  const fields = useRef<HTMLDivElement>(null);
  const { save, busy } = useSaveSection(onSaved);
  const valueOf = (name: string) => fields.current?.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? '';
  const { headline, text } = settings.site.hero;
  return (
    <SettingsCard
      id="settings-hero"
      title={texts.heroTitle}
      intro={`${texts.heroIntro} ${texts.productWords}`}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ hero: { headline: valueOf('headline'), text: valueOf('heroText') } })}
    >
      <div ref={fields} className={`flex flex-col gap-4 ${COUNTED_LABELS}`}>
        <LimitedField
          label={texts.headline}
          name="headline"
          max={HERO_HEADLINE_MAX}
          tooLong={answers.settingTooLong('Headline', HERO_HEADLINE_MAX)}
          defaultValue={headline ?? ''}
        />
        <LimitedField
          label={texts.heroText}
          name="heroText"
          multiline
          max={HERO_TEXT_MAX}
          tooLong={answers.settingTooLong('Intro text', HERO_TEXT_MAX)}
          defaultValue={text ?? ''}
        />
      </div>
    </SettingsCard>
  );
}

/** A labelled textarea, as FormField is for a line. */
export function TextArea({ label, hint, className = '', ...area }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend text-sm">
        {label}
      </label>
      <textarea id={id} className={`textarea w-full ${className}`} aria-describedby={hint ? `${id}-hint` : undefined} {...area} />
      {hint && (
        <p id={`${id}-hint`} className="label whitespace-normal">
          {hint}
        </p>
      )}
    </div>
  );
}

/** The testimonials, in the home page's order, saved as one list. */
export function TestimonialsSection({ settings, onSaved, saveLabel }: SectionProps) {
  const { save, busy } = useSaveSection(onSaved);
  const [rows, setRows] = useState<Row<Testimonial>[]>(() => rowsOf(settings.site.testimonials));
  return (
    <SettingsCard
      id="settings-testimonials"
      title={texts.testimonialsTitle}
      intro={texts.testimonialsIntro}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ testimonials: rows.map((row) => row.value) })}
    >
      <ListEditor
        rows={rows}
        onChange={setRows}
        max={TESTIMONIALS_MAX}
        nameOf={(index) => texts.testimonial(index + 1)}
        blank={() => ({ quote: '', name: '', role: '' })}
        addLabel={texts.addTestimonial}
        empty={texts.noTestimonials}
        renderFields={(value, set) => (
          <div className="flex flex-col">
            <TextArea label={texts.quote} rows={3} value={value.quote} onChange={(event) => set({ ...value, quote: event.target.value })} />
            <div className="grid gap-x-3 sm:grid-cols-2">
              <FormField label={texts.personName} value={value.name} onChange={(event) => set({ ...value, name: event.target.value })} />
              <FormField label={texts.role} placeholder={texts.roleHint} value={value.role} onChange={(event) => set({ ...value, role: event.target.value })} />
            </div>
          </div>
        )}
      />
    </SettingsCard>
  );
}

/** The questions and answers; none saved means the product's own questions. */
export function FaqSection({ settings, onSaved, saveLabel }: SectionProps) {
  const { save, busy } = useSaveSection(onSaved);
  const own = settings.site.faq;
  const [rows, setRows] = useState<Row<FaqEntry>[]>(() => rowsOf(own ?? []));
  // Still the product's questions while the admin has not started a list of their own.
  const productQuestions = own === null && rows.length === 0;
  return (
    <SettingsCard
      id="settings-faq"
      title={texts.faqTitle}
      intro={texts.faqIntro}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ faq: productQuestions ? null : rows.map((row) => row.value) })}
      extraActions={
        own !== null && (
          <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => void save({ faq: null }).then((saved) => saved && setRows([]))}>
            {texts.useProductQuestions}
          </button>
        )
      }
    >
      <ListEditor
        rows={rows}
        onChange={setRows}
        max={FAQ_MAX}
        nameOf={(index) => texts.entry(index + 1)}
        blank={() => ({ question: '', answer: '' })}
        addLabel={texts.addQuestion}
        empty={productQuestions ? texts.productQuestions : texts.noQuestions}
        renderFields={(value, set) => (
          <div className="flex flex-col">
            <FormField label={texts.question} value={value.question} onChange={(event) => set({ ...value, question: event.target.value })} />
            <TextArea label={texts.answer} rows={3} value={value.answer} onChange={(event) => set({ ...value, answer: event.target.value })} />
          </div>
        )}
      />
    </SettingsCard>
  );
}
