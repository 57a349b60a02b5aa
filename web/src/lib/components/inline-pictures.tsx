/**
 * The two pictures of every page's header, drawn inline rather than as `<img>` of their static
 * files (public/favicon.svg, public/default-avatar.svg): an SVG image is fetched, then parsed as a
 * document of its own on the main thread, while the page is still starting. The shapes are the
 * files' own, which a test holds them to.
 */

/** The brand mark: a mortarboard on the brand's violet. Decorative: the site's name is beside it. */
export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" className="shrink-0">
      <rect width="32" height="32" rx="7" fill="#422ad5" />
      <path fill="#fff" d="M16 6.5 29.5 13 16 19.5 2.5 13zM8.5 16.6l7.5 3.6 7.5-3.6v5c0 2.1-3.4 3.9-7.5 3.9s-7.5-1.8-7.5-3.9z" />
      <path fill="none" stroke="#fff" strokeWidth="1.6" strokeLinecap="round" d="M26.5 14.4v7" />
      <circle cx="26.5" cy="22.6" r="1.5" fill="#fff" />
    </svg>
  );
}

/** The picture of an account without one of its own: a grey head and shoulders, filling its box. */
export function DefaultAvatar({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" className={className}>
      <rect width="64" height="64" fill="#cbd5e1" />
      <circle cx="32" cy="25" r="12" fill="#64748b" />
      <path d="M10 60c2-13 11-20 22-20s20 7 22 20z" fill="#64748b" />
    </svg>
  );
}
