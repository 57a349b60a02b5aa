import { render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it } from 'vitest';
import type { Site } from '@lms/contract/settings';
import { DEFAULT_SITE } from '@lms/contract/site';
import { setSite } from '../lib/site';
import { memoryRouter, stubApi } from '../test/render';
import { routes } from './router';
import { createStore } from './store';

/** The whole app at `path` as a visitor, on the site `site`. */
async function renderApp(path: string, site: Site = DEFAULT_SITE) {
  setSite(site);
  stubApi({});
  const { routed, router } = memoryRouter(routes, path);
  render(<Provider store={createStore()}>{routed}</Provider>);
  await screen.findByRole('heading', { level: 1 });
  return router;
}

const brandLink = () => within(screen.getByRole('banner')).getAllByRole('link')[0]!;
// As the DOM has them: an empty href is no link to an accessibility tree.
const socialLinks = () => [...screen.getByRole('navigation', { name: 'Social media' }).querySelectorAll('a')];

const tabla: Site = {
  ...DEFAULT_SITE,
  name: 'Tabla Gurukul',
  shortName: 'Tabla',
  logo: { url: '/media/site/logo-1.png', width: 256, height: 256 },
};

afterEach(() => setSite(DEFAULT_SITE));

describe("the seller's name and logo around every page", () => {
  it('a fresh site: the product icon and LMS in the bar, the spec footer with four social icons with empty targets', async () => {
    await renderApp('/about');
    expect(brandLink()).toHaveAccessibleName('LMS');
    // The product's mark drawn inline (no image to fetch and parse while the page starts).
    expect(brandLink().querySelector('img')).toBeNull();
    expect(brandLink().querySelector('svg rect')).toHaveAttribute('fill', '#422ad5');
    // The title is set in an effect, after the page's first paint.
    await waitFor(() => expect(document.title).toBe('About us · LMS'));
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`Copyright ${new Date().getFullYear()} | All right reserved LMS`);
    expect(socialLinks().map((link) => link.getAttribute('aria-label'))).toEqual(['Facebook', 'Instagram', 'Twitter', 'LinkedIn']);
    for (const link of socialLinks()) expect(link).toHaveAttribute('href', '');
    // The legal pages and the contact page, but no contact details the seller has not given.
    const legal = within(screen.getByRole('navigation', { name: 'Legal' }));
    expect(legal.getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/terms');
    expect(legal.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacy');
    expect(legal.getByRole('link', { name: 'Refund policy' })).toHaveAttribute('href', '/refund-policy');
    expect(legal.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
    expect(footer.querySelector('address')).toBeNull();
  });

  it("a named site: its logo and name in the bar, its name in the tab's title and the footer", async () => {
    await renderApp('/about', tabla);
    expect(brandLink()).toHaveAccessibleName('Tabla Gurukul');
    const logo = brandLink().querySelector('img')!;
    expect(logo).toHaveAttribute('src', '/media/site/logo-1.png');
    expect(logo).toHaveAttribute('width', '256');
    expect(logo).toHaveAttribute('height', '256');
    await waitFor(() => expect(document.title).toBe('About us · Tabla Gurukul'));
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`Copyright ${new Date().getFullYear()} | All right reserved Tabla Gurukul`);
  });

  it('a wide logo (a wordmark) stands alone in the bar, named by its text alternative', async () => {
    await renderApp('/about', { ...tabla, logo: { url: '/media/site/logo-2.svg', width: 480, height: 96 } });
    expect(brandLink()).toHaveAccessibleName('Tabla Gurukul');
    expect(within(brandLink()).getByRole('img', { name: 'Tabla Gurukul' })).toHaveAttribute('src', '/media/site/logo-2.svg');
    expect(brandLink()).toHaveTextContent(/^$/);
  });

  it('shows only the social links the seller set, YouTube too, opening their profiles', async () => {
    await renderApp('/about', {
      ...tabla,
      social: { facebook: '', instagram: 'https://instagram.com/tabla', twitter: '', linkedin: '', youtube: 'https://www.youtube.com/@tabla' },
    });
    expect(socialLinks().map((link) => [link.getAttribute('aria-label'), link.getAttribute('href')])).toEqual([
      ['Instagram', 'https://instagram.com/tabla'],
      ['YouTube', 'https://www.youtube.com/@tabla'],
    ]);
    for (const link of socialLinks()) expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it("gives the seller's email, phone and address in the footer, as links where they can be", async () => {
    await renderApp('/about', { ...tabla, contact: { email: 'hello@tabla.in', phone: '+91 98765 43210', address: '12 MG Road\nPune 411001' } });
    const address = screen.getByRole('contentinfo').querySelector('address')!;
    expect(within(address).getByRole('link', { name: 'hello@tabla.in' })).toHaveAttribute('href', 'mailto:hello@tabla.in');
    expect(within(address).getByRole('link', { name: '+91 98765 43210' })).toHaveAttribute('href', 'tel:+919876543210');
    expect(address).toHaveTextContent('12 MG Road Pune 411001');
  });
});
