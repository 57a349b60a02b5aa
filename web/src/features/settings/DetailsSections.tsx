import { INDIAN_STATES } from '@lms/contract/billing';
import { SOCIAL_NETWORKS, type ContactDetails, type Social } from '@lms/contract/settings';
import { pagePaths } from '@lms/contract/pages';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../lib/components/FormField';
import { paths } from '../../lib/paths';
import { TextArea } from './HomeSections';
import { SettingsCard, useSaveSection, type SectionProps } from './SettingsCard';
import { SELLER_VARIABLES, settingsTexts as texts } from './settings-texts';

/** The social profiles the footer links to; an empty one is left out. */
export function SocialSection({ settings, onSaved, saveLabel }: SectionProps) {
  const { save, busy } = useSaveSection(onSaved);
  const [social, setSocial] = useState<Social>(settings.site.social);
  return (
    <SettingsCard
      id="settings-social"
      title={texts.socialTitle}
      intro={texts.socialIntro}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ social })}
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        {SOCIAL_NETWORKS.map((network) => (
          <FormField
            key={network}
            label={texts.social[network]}
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder={texts.socialPlaceholder(network)}
            value={social[network]}
            onChange={(event) => setSocial((current) => ({ ...current, [network]: event.target.value }))}
          />
        ))}
      </div>
    </SettingsCard>
  );
}

/** How visitors reach the seller: the contact page and the footer show what is filled in. */
export function ContactSection({ settings, onSaved, saveLabel }: SectionProps) {
  const { save, busy } = useSaveSection(onSaved);
  const [contact, setContact] = useState<ContactDetails>(settings.site.contact);
  const set = (field: keyof ContactDetails) => (event: { target: { value: string } }) => setContact((current) => ({ ...current, [field]: event.target.value }));
  return (
    <SettingsCard
      id="settings-contact"
      title={texts.contactTitle}
      intro={texts.contactIntro}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ contact })}
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <FormField label={texts.email} type="email" autoComplete="email" value={contact.email} onChange={set('email')} />
        <FormField label={texts.phone} type="tel" autoComplete="tel" value={contact.phone} onChange={set('phone')} />
        <div className="sm:col-span-2">
          <TextArea label={texts.address} rows={3} autoComplete="street-address" value={contact.address} onChange={set('address')} />
        </div>
      </div>
    </SettingsCard>
  );
}

type SellerField = keyof typeof SELLER_VARIABLES;

/**
 * Who invoices name as the seller. A field the server's environment sets shows read-only, with the
 * variable's name: the server keeps it whatever this page sends, so it is sent as it is.
 */
export function SellerSection({ settings, onSaved, saveLabel }: SectionProps) {
  const { save, busy } = useSaveSection(onSaved);
  const [seller, setSeller] = useState(settings.seller);
  const locked = settings.fromEnvironment;
  const set = (field: SellerField) => (event: { target: { value: string } }) => setSeller((current) => ({ ...current, [field]: event.target.value }));
  const lockNote = (field: SellerField) => (locked[field] ? texts.fromEnvironment(SELLER_VARIABLES[field]) : undefined);
  return (
    <SettingsCard
      id="settings-seller"
      title={texts.sellerTitle}
      intro={texts.sellerIntro}
      busy={busy}
      saveLabel={saveLabel}
      onSubmit={() => void save({ seller: { ...seller, gstin: seller.gstin.trim().toUpperCase() } })}
    >
      <div className="grid gap-x-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <FormField
            label={texts.legalName}
            autoComplete="organization"
            value={seller.legalName}
            readOnly={locked.legalName}
            className={locked.legalName ? 'bg-base-200' : ''}
            hint={lockNote('legalName')}
            onChange={set('legalName')}
          />
        </div>
        <FormField
          label={texts.gstin}
          value={seller.gstin}
          readOnly={locked.gstin}
          className={`font-mono uppercase ${locked.gstin ? 'bg-base-200' : ''}`}
          maxLength={15}
          spellCheck={false}
          autoComplete="off"
          hint={lockNote('gstin') ?? texts.gstinHint}
          onChange={set('gstin')}
        />
        <StateSelect value={seller.stateCode} locked={locked.stateCode} note={lockNote('stateCode')} onChange={set('stateCode')} />
      </div>
    </SettingsCard>
  );
}

function StateSelect({
  value,
  locked,
  note,
  onChange,
}: {
  value: string;
  locked: boolean;
  note?: string;
  onChange: (event: { target: { value: string } }) => void;
}) {
  const id = 'settings-seller-state';
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend text-sm">
        {texts.state}
      </label>
      {locked ? (
        // A select cannot be read-only: a read-only box with the state's name instead.
        <input
          id={id}
          className="input w-full bg-base-200"
          readOnly
          value={`${INDIAN_STATES[value as keyof typeof INDIAN_STATES] ?? value} (${value})`}
          aria-describedby={`${id}-note`}
        />
      ) : (
        <select id={id} className="select w-full" value={value} onChange={onChange}>
          {!(value in INDIAN_STATES) && <option value="">{texts.chooseState}</option>}
          {Object.entries(INDIAN_STATES).map(([code, name]) => (
            <option key={code} value={code}>
              {name} ({code})
            </option>
          ))}
        </select>
      )}
      {note && (
        <p id={`${id}-note`} className="label whitespace-normal">
          {note}
        </p>
      )}
    </div>
  );
}

/** The legal pages, each with whether it is still the starting template. */
export function LegalPagesSection({ settings }: Pick<SectionProps, 'settings'>) {
  const templates = new Set(settings.templates);
  const pages = [
    { page: 'terms', to: paths.terms },
    { page: 'privacy', to: paths.privacy },
    { page: 'refund-policy', to: pagePaths.refundPolicy },
  ] as const;
  return (
    <SettingsCard id="settings-legal" title={texts.legalTitle} intro={texts.legalIntro}>
      <ul className="divide-y divide-base-300 rounded-box border border-base-300">
        {pages.map(({ page, to }) => (
          <li key={page} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
            <Link to={to} className="link link-primary font-medium">
              {texts.legalPages[page]}
            </Link>
            {templates.has(page) ? (
              <span className="badge badge-warning badge-sm">{texts.template}</span>
            ) : (
              <span className="badge badge-ghost badge-sm">{texts.written}</span>
            )}
          </li>
        ))}
      </ul>
    </SettingsCard>
  );
}
