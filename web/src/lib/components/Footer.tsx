import { messages } from '@lms/contract/messages';
import type { SocialNetwork } from '@lms/contract/settings';
import { Link } from 'react-router';
import { paths } from '../paths';
import { useSite } from '../site';
import { telHref } from '../tel-href';

// The brand marks are symbols of one static SVG (public/social-icons.svg), drawn in the text's colour:
// not in the JavaScript every page loads first, which has a budget.
const socials: { network: SocialNetwork; name: string }[] = [
  { network: 'facebook', name: 'Facebook' },
  { network: 'instagram', name: 'Instagram' },
  { network: 'twitter', name: 'Twitter' },
  { network: 'linkedin', name: 'LinkedIn' },
  { network: 'youtube', name: 'YouTube' },
];

const legalLinks = [
  { to: paths.terms, label: messages.termsTitle },
  { to: paths.privacy, label: messages.privacyTitle },
  { to: paths.refundPolicy, label: messages.refundPolicyTitle },
  { to: paths.contact, label: 'Contact us' },
];

/**
 * The legal pages and the seller's contact details; then the spec's copyright line, in the site's
 * name, and its social links. A fresh site, with no link set, shows the spec's four icons with empty
 * targets; once the seller sets any, only those set, each opening the seller's profile.
 */
export function Footer() {
  const site = useSite();
  const { email, phone, address } = site.contact;
  const anySocial = socials.some((social) => site.social[social.network] !== '');
  const shown = anySocial ? socials.filter((social) => site.social[social.network] !== '') : socials.filter((social) => social.network !== 'youtube');
  return (
    <footer className="bg-base-300 text-base-content">
      <div className="flex flex-col gap-3 border-b border-base-content/10 px-4 py-4 text-sm sm:flex-row sm:flex-wrap sm:items-start sm:justify-between">
        <nav aria-label="Legal">
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {legalLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="link link-hover inline-block py-0.5">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {(email || phone || address) && (
          <address className="flex flex-col gap-1 not-italic sm:items-end sm:text-right">
            {address && <span className="whitespace-pre-line">{address}</span>}
            {(email || phone) && (
              <span className="flex flex-wrap gap-x-4 gap-y-1 sm:justify-end">
                {email && (
                  <a href={`mailto:${email}`} className="link link-hover inline-block py-0.5 break-all">
                    {email}
                  </a>
                )}
                {phone && (
                  <a href={telHref(phone)} className="link link-hover inline-block py-0.5 whitespace-nowrap">
                    {phone}
                  </a>
                )}
              </span>
            )}
          </address>
        )}
      </div>
      <div className="footer sm:footer-horizontal items-center justify-between gap-4 p-4">
        <p>
          Copyright {new Date().getFullYear()} | {messages.footerRightsOf(site.name)}
        </p>
        <nav aria-label="Social media" className="flex gap-4">
          {shown.map((social) =>
            anySocial ? (
              <a
                key={social.network}
                href={site.social[social.network]}
                target="_blank"
                rel="noopener noreferrer"
                className="link-hover"
                aria-label={social.name}
              >
                <SocialIcon network={social.network} />
              </a>
            ) : (
              <a key={social.network} href="" className="link-hover" aria-label={social.name}>
                <SocialIcon network={social.network} />
              </a>
            ),
          )}
        </nav>
      </div>
    </footer>
  );
}

function SocialIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true" focusable="false">
      <use href={`/social-icons.svg#${network}`} />
    </svg>
  );
}
