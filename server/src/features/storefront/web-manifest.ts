import { answers } from '@lms/contract/answers';
import { THEME_BACKGROUNDS } from '@lms/contract/contrast';
import type { PageSite } from './page-head.ts';

/** The product's own primary colour (daisyUI's light theme): a site without a brand is painted in it. */
export const PRODUCT_THEME_COLOR = '#422ad5';

/** The build's own icons (web/public), for a site without a logo. */
const BUILD_ICONS = [
  { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
  { src: '/apple-touch-icon.png', sizes: '180x180', type: 'image/png' },
];

/**
 * The web app manifest (/manifest.webmanifest): what a phone shows when the site is added to its
 * home screen, under the site's own name and icons, opening as an app of its own.
 */
export function webManifest({ site, icons }: PageSite) {
  return {
    id: '/',
    name: site.name,
    short_name: site.shortName,
    description: answers.siteDescription,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: site.brand?.light.primary ?? PRODUCT_THEME_COLOR,
    background_color: THEME_BACKGROUNDS.light,
    icons: icons
      ? [
          { src: icons[192], sizes: '192x192', type: 'image/png' },
          { src: icons[512], sizes: '512x512', type: 'image/png' },
        ]
      : BUILD_ICONS,
  };
}
