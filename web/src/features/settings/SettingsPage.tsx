import { usePageTitle } from '../../lib/use-page-title';
import { BrandSection } from './BrandSection';
import { ContactSection, LegalPagesSection, SellerSection, SocialSection } from './DetailsSections';
import { FaqSection, HeroSection, TestimonialsSection } from './HomeSections';
import { LogoSection } from './LogoSection';
import { ProtectionSection } from './ProtectionSection';
import { useGetSettingsQuery } from './settings.api';
import { settingsTexts as texts } from './settings-texts';
import { SiteSection } from './SiteSection';
import { AdminPageHeader } from '../../lib/components/AdminPageHeader';

/** The sections in the page's order, for the list beside them on a wide screen. */
const SECTIONS = [
  { id: 'settings-site', label: texts.siteTitle },
  { id: 'settings-logo', label: texts.logoTitle },
  { id: 'settings-brand', label: texts.brandTitle },
  { id: 'settings-hero', label: texts.heroTitle },
  { id: 'settings-testimonials', label: texts.testimonialsTitle },
  { id: 'settings-faq', label: texts.faqTitle },
  { id: 'settings-social', label: texts.socialTitle },
  { id: 'settings-contact', label: texts.contactTitle },
  { id: 'settings-seller', label: texts.sellerTitle },
  { id: 'settings-legal', label: texts.legalTitle },
  { id: 'settings-protection', label: texts.protectionTitle },
];

/**
 * The administrator's site settings (ADMIN only; the router guards it): each section a card with
 * its own Save, which sends that section's fields alone.
 */
export default function SettingsPage() {
  usePageTitle(texts.title);
  const query = useGetSettingsQuery();
  const settings = query.data?.settings;
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <AdminPageHeader title={texts.title} intro={texts.intro} />
      {!settings ? (
        query.isError ? (
          <p className="rounded-box bg-base-200 p-6 text-base-content/80">{texts.failed}</p>
        ) : (
          <div className="flex flex-col gap-4" aria-busy="true">
            <span className="sr-only">{texts.loading}</span>
            <div className="skeleton h-48 w-full" />
            <div className="skeleton h-48 w-full" />
          </div>
        )
      ) : (
        <div className="grid gap-6 lg:grid-cols-[12rem_minmax(0,1fr)]">
          <nav aria-label={texts.sections} className="hidden lg:block">
            <ul className="menu sticky top-4 w-full p-0">
              {SECTIONS.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>{section.label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex min-w-0 flex-col gap-6">
            <SiteSection settings={settings} />
            <LogoSection settings={settings} />
            <BrandSection settings={settings} />
            <HeroSection settings={settings} />
            <TestimonialsSection settings={settings} />
            <FaqSection settings={settings} />
            <SocialSection settings={settings} />
            <ContactSection settings={settings} />
            <SellerSection settings={settings} />
            <LegalPagesSection settings={settings} />
            <ProtectionSection settings={settings} />
          </div>
        </div>
      )}
    </div>
  );
}
