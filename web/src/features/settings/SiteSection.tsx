import { answers } from '@lms/contract/answers';
import { SHORT_NAME_MAX, SITE_NAME_MAX } from '@lms/contract/settings';
import { useRef } from 'react';
import { LimitedField } from '../../lib/components/LimitedField';
import { COUNTED_LABELS, SettingsCard, useSaveSection, type SectionProps } from './SettingsCard';
import { settingsTexts as texts } from './settings-texts';

/** The site's name and the short name a phone's home screen shows. */
export function SiteSection({ settings, onSaved, saveLabel }: SectionProps) {
  const form = useRef<HTMLDivElement>(null);
  const { save, busy } = useSaveSection(onSaved);
  const valueOf = (name: string) => form.current?.querySelector<HTMLInputElement>(`[name="${name}"]`)?.value ?? '';
  return (
    <SettingsCard
      id="settings-site"
      title={texts.siteTitle}
      intro={texts.siteIntro}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ name: valueOf('name'), shortName: valueOf('shortName') })}
    >
      <div ref={form} className={`grid gap-4 sm:grid-cols-[2fr_1fr] ${COUNTED_LABELS}`}>
        <LimitedField
          label={texts.name}
          name="name"
          max={SITE_NAME_MAX}
          tooLong={answers.settingTooLong('Site name', SITE_NAME_MAX)}
          defaultValue={settings.site.name}
        />
        <div>
          <LimitedField
            label={texts.shortName}
            name="shortName"
            max={SHORT_NAME_MAX}
            tooLong={answers.settingTooLong('Short name', SHORT_NAME_MAX)}
            defaultValue={settings.site.shortName}
          />
          <p className="mt-1 text-xs text-base-content/70">{texts.shortNameHint}</p>
        </div>
      </div>
    </SettingsCard>
  );
}
