import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { BrandSection } from './BrandSection';
import { ContactSection } from './DetailsSections';
import { LogoSection } from './LogoSection';
import { useGetSettingsQuery } from './settings.api';
import type { SectionProps } from './SettingsCard';
import { settingsTexts as texts } from './settings-texts';
import { SiteSection } from './SiteSection';

/** The setup's steps: the settings page's own sections, in the order a new seller needs them. */
const STEPS: ((props: SectionProps) => React.ReactNode)[] = [SiteSection, LogoSection, BrandSection, ContactSection];

/**
 * The short setup the first administrator is led through after choosing their password: name,
 * logo, colour, contact, each saved or skipped; Finish lands on the dashboard. Everything here can
 * be changed later in Site settings.
 */
export default function SetupPage() {
  usePageTitle(texts.setupTitle);
  const navigate = useNavigate();
  const query = useGetSettingsQuery();
  const settings = query.data?.settings;
  const [step, setStep] = useState(0);
  const last = step === STEPS.length - 1;
  const Section = STEPS[step]!;

  const onward = () => {
    if (last) void navigate(paths.dashboard, { replace: true });
    else setStep(step + 1);
  };
  // The logo step saves on upload: once there is one, moving on is not skipping.
  const done = step === 1 && settings?.site.logo !== null;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-2 text-center">
        <h1 className="text-3xl font-bold">{texts.setupTitle}</h1>
        <p className="text-base-content/80">{texts.setupIntro}</p>
      </header>
      <nav aria-label={texts.setupTitle}>
        <ol className="steps w-full">
          {texts.steps.map((name, index) => (
            <li key={name} className={`step text-sm ${index <= step ? 'step-primary' : ''}`} aria-current={index === step ? 'step' : undefined}>
              {name}
            </li>
          ))}
        </ol>
      </nav>
      <p className="sr-only" aria-live="polite">
        {texts.stepOf(step + 1, STEPS.length)}: {texts.steps[step]}
      </p>
      {!settings ? (
        query.isError ? (
          <p className="rounded-box bg-base-200 p-6 text-base-content/80">{texts.failed}</p>
        ) : (
          <div className="skeleton h-64 w-full" aria-busy="true">
            <span className="sr-only">{texts.loading}</span>
          </div>
        )
      ) : (
        <Section key={step} settings={settings} onSaved={step === 1 ? undefined : onward} saveLabel={last ? texts.finish : texts.saveAndContinue} />
      )}
      <div className="flex items-center justify-between gap-2">
        {step > 0 ? (
          <button type="button" className="btn btn-ghost" onClick={() => setStep(step - 1)}>
            {texts.back}
          </button>
        ) : (
          <span />
        )}
        <span className="text-sm text-base-content/70">{texts.stepOf(step + 1, STEPS.length)}</span>
        <button type="button" className={done ? 'btn btn-primary' : 'btn btn-ghost'} onClick={onward}>
          {done ? texts.next : last ? texts.skipAndFinish : texts.skip}
        </button>
      </div>
    </div>
  );
}
