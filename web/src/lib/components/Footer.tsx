import { messages } from '@lms/contract/messages';
import type { SocialNetwork } from '@lms/contract/settings';
import { Link } from 'react-router';
import { paths } from '../paths';
import { useSite } from '../site';
import { telHref } from '../tel-href';

// Simple brand marks as inline SVG: no icon library in the bundle every page loads.
const socials: { network: SocialNetwork; name: string; path: string; fillRule?: 'evenodd' }[] = [
  {
    network: 'facebook',
    name: 'Facebook',
    path: 'M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.3c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.4 2.9h-2.4v7A10 10 0 0 0 22 12z',
  },
  // Evenodd: the rounded square and the lens are rings, and the dot sits in the square's hollow.
  {
    network: 'instagram',
    name: 'Instagram',
    fillRule: 'evenodd',
    path: 'M8 2h8a6 6 0 0 1 6 6v8a6 6 0 0 1-6 6H8a6 6 0 0 1-6-6V8a6 6 0 0 1 6-6zm0 2a4 4 0 0 0-4 4v8a4 4 0 0 0 4 4h8a4 4 0 0 0 4-4V8a4 4 0 0 0-4-4H8zm4 3a5 5 0 1 1 0 10 5 5 0 0 1 0-10zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6zm5.5-3.75a1.25 1.25 0 1 1 0 2.5 1.25 1.25 0 0 1 0-2.5z',
  },
  {
    network: 'twitter',
    name: 'Twitter',
    path: 'M22 5.9a8.2 8.2 0 0 1-2.4.6 4.1 4.1 0 0 0 1.8-2.3 8.2 8.2 0 0 1-2.6 1 4.1 4.1 0 0 0-7 3.7A11.6 11.6 0 0 1 3.4 4.6a4.1 4.1 0 0 0 1.3 5.5 4 4 0 0 1-1.9-.5v.1a4.1 4.1 0 0 0 3.3 4 4.1 4.1 0 0 1-1.9.1 4.1 4.1 0 0 0 3.8 2.8A8.2 8.2 0 0 1 2 18.3 11.6 11.6 0 0 0 8.3 20c7.5 0 11.7-6.2 11.7-11.7v-.5A8.3 8.3 0 0 0 22 5.9z',
  },
  {
    network: 'linkedin',
    name: 'LinkedIn',
    path: 'M20.4 2H3.6A1.6 1.6 0 0 0 2 3.6v16.8A1.6 1.6 0 0 0 3.6 22h16.8a1.6 1.6 0 0 0 1.6-1.6V3.6A1.6 1.6 0 0 0 20.4 2zM8 19H5v-9h3v9zM6.5 8.7a1.7 1.7 0 1 1 0-3.5 1.7 1.7 0 0 1 0 3.5zM19 19h-3v-4.4c0-1.1 0-2.4-1.5-2.4s-1.7 1.1-1.7 2.3V19h-3v-9h2.9v1.2a3.1 3.1 0 0 1 2.8-1.5c3 0 3.5 2 3.5 4.5V19z',
  },
  // Evenodd: the play triangle is a hole in the rounded screen.
  {
    network: 'youtube',
    name: 'YouTube',
    fillRule: 'evenodd',
    path: 'M23 7.2a3 3 0 0 0-2.1-2.1C19 4.6 12 4.6 12 4.6s-7 0-8.9.5A3 3 0 0 0 1 7.2 31 31 0 0 0 .5 12a31 31 0 0 0 .5 4.8 3 3 0 0 0 2.1 2.1c1.9.5 8.9.5 8.9.5s7 0 8.9-.5a3 3 0 0 0 2.1-2.1 31 31 0 0 0 .5-4.8 31 31 0 0 0-.5-4.8zM9.8 15.1V8.9l5.8 3.1-5.8 3.1z',
  },
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
                <SocialIcon path={social.path} fillRule={social.fillRule} />
              </a>
            ) : (
              <a key={social.network} href="" className="link-hover" aria-label={social.name}>
                <SocialIcon path={social.path} fillRule={social.fillRule} />
              </a>
            ),
          )}
        </nav>
      </div>
    </footer>
  );
}

function SocialIcon({ path, fillRule }: { path: string; fillRule?: 'evenodd' }) {
  return (
    <svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor" aria-hidden="true" focusable="false">
      <path d={path} fillRule={fillRule} />
    </svg>
  );
}
