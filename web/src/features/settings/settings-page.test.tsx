import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answers } from '@lms/contract/answers';
import { DEFAULT_PROTECTION } from '@lms/contract/protection';
import type { Settings, SettingsUpdate } from '@lms/contract/settings';
import { DEFAULT_SITE } from '@lms/contract/site';
import { FakeUpload } from '../../test/fake-upload';
import { findToast, renderPage, stubApi } from '../../test/render';
import { getSite, setSite } from '../../lib/site';
import SettingsPage from './SettingsPage';
import { settingsTexts as texts } from './settings-texts';

const saved: Settings = {
  site: {
    ...DEFAULT_SITE,
    name: 'Asha Academy',
    shortName: 'Asha',
    testimonials: [
      { quote: 'Clear and calm.', name: 'Ravi', role: 'Analyst' },
      { quote: 'Worth every rupee.', name: 'Meera', role: '' },
    ],
  },
  seller: { legalName: 'Asha Learning Pvt Ltd', gstin: '', stateCode: '29' },
  fromEnvironment: { legalName: false, gstin: false, stateCode: false },
  templates: ['privacy', 'refund-policy'],
  protection: { ...DEFAULT_PROTECTION, fromEnvironment: { maxStreams: false, maxDevices: false } },
};

/** The server's answer to a change: the settings with the change applied, as it saves each field whole. */
function applied(settings: Settings, change: SettingsUpdate): Settings {
  const { seller, ...site } = change;
  return { ...settings, site: { ...settings.site, ...(site as Partial<Settings['site']>) }, seller: seller ?? settings.seller };
}

/** The settings page over a server holding `settings`; the PATCH bodies it received. */
function renderSettings(settings: Settings = saved) {
  let current = settings;
  const patches: SettingsUpdate[] = [];
  const calls = stubApi({
    'GET /api/v1/settings': () => ({ body: { success: true, message: answers.settingsFetched, settings: current } }),
    'PATCH /api/v1/settings': (init) => {
      const change = JSON.parse(init.body as string) as SettingsUpdate;
      patches.push(change);
      current = applied(current, change);
      return { body: { success: true, message: answers.settingsSaved, settings: current } };
    },
    'DELETE /api/v1/settings/logo': () => {
      current = { ...current, site: { ...current.site, logo: null } };
      return { body: { success: true, message: answers.logoRemoved, settings: current } };
    },
  });
  const view = renderPage(<SettingsPage />, { path: '/admin/settings' });
  return { ...view, patches, calls };
}

const section = (name: string) => screen.findByRole('region', { name });
const saveIn = async (name: string) => within(await section(name)).getByRole('button', { name: texts.save });

afterEach(() => setSite(DEFAULT_SITE));

describe('the site settings page', () => {
  it('saves the name alone, and the site this tab shows takes it at once', async () => {
    const { user, patches } = renderSettings();
    const site = await section(texts.siteTitle);
    const name = within(site).getByLabelText(texts.name);
    expect(name).toHaveValue('Asha Academy');
    await user.clear(name);
    await user.type(name, 'Meera Music School');
    expect(within(site).getByText('18/60')).toBeInTheDocument();
    await user.click(within(site).getByRole('button', { name: texts.save }));

    expect(await findToast(answers.settingsSaved)).toBeInTheDocument();
    expect(patches).toEqual([{ name: 'Meera Music School', shortName: 'Asha' }]);
    expect(getSite().name).toBe('Meera Music School');
    await waitFor(() => expect(document.title).toBe(`${texts.title} · Meera Music School`));
  });

  it('sends each section’s own fields only', async () => {
    const { user, patches } = renderSettings();
    const social = await section(texts.socialTitle);
    await user.type(within(social).getByLabelText(texts.social.youtube), 'https://www.youtube.com/@asha');
    await user.click(within(social).getByRole('button', { name: texts.save }));
    await waitFor(() => expect(patches).toHaveLength(1));

    const contact = await section(texts.contactTitle);
    await user.type(within(contact).getByLabelText(texts.email), 'hello@asha.in');
    await user.type(within(contact).getByLabelText(texts.address), '12 MG Road{Enter}Bengaluru');
    await user.click(within(contact).getByRole('button', { name: texts.save }));
    await waitFor(() => expect(patches).toHaveLength(2));

    const hero = await section(texts.heroTitle);
    await user.type(within(hero).getByLabelText(texts.headline), 'Sing with confidence');
    await user.click(within(hero).getByRole('button', { name: texts.save }));
    await waitFor(() => expect(patches).toHaveLength(3));

    const seller = await section(texts.sellerTitle);
    await user.type(within(seller).getByLabelText(texts.gstin), '27aapfu0939f1zv');
    await user.selectOptions(within(seller).getByLabelText(texts.state), '27');
    await user.click(within(seller).getByRole('button', { name: texts.save }));
    await waitFor(() => expect(patches).toHaveLength(4));

    expect(patches).toEqual([
      { social: { facebook: '', instagram: '', twitter: '', linkedin: '', youtube: 'https://www.youtube.com/@asha' } },
      { contact: { email: 'hello@asha.in', phone: '', address: '12 MG Road\nBengaluru' } },
      { hero: { headline: 'Sing with confidence', text: '' } },
      { seller: { legalName: 'Asha Learning Pvt Ltd', gstin: '27AAPFU0939F1ZV', stateCode: '27' } },
    ]);
    expect(getSite().social.youtube).toBe('https://www.youtube.com/@asha');
  });

  it('says what is wrong before sending, and shows the server’s refusal', async () => {
    const { user, patches } = renderSettings();
    const social = await section(texts.socialTitle);
    await user.type(within(social).getByLabelText(texts.social.facebook), 'facebook dot com');
    await user.click(within(social).getByRole('button', { name: texts.save }));
    expect(await findToast(answers.linkInvalid)).toBeInTheDocument();
    expect(patches).toEqual([]);

    const refusal = stubApi({ 'PATCH /api/v1/settings': { status: 400, body: { success: false, message: answers.settingFromEnvironment('Legal name') } } });
    await user.click(await saveIn(texts.sellerTitle));
    expect(await findToast(answers.settingFromEnvironment('Legal name'))).toBeInTheDocument();
    expect(refusal.map((call) => call.init.method)).toEqual(['PATCH']);
    expect(getSite().name).toBe('LMS');
  });

  it('keeps Save off while a theme’s colours fail AA, with the ratio, and previews both themes', async () => {
    const { user, patches } = renderSettings();
    const brand = await section(texts.brandTitle);
    const light = within(brand).getByRole('group', { name: texts.themeName.light });
    const save = within(brand).getByRole('button', { name: texts.save });
    expect(within(brand).getByText(texts.usingProductColours)).toBeInTheDocument();
    expect(save).toBeEnabled();

    const primary = within(light).getByLabelText(texts.primary);
    await user.clear(primary);
    await user.type(primary, '#ffff00');
    expect(save).toBeDisabled();
    // Yellow on white reads at 1.07:1.
    expect(within(brand).getByText(answers.contrastTooLow('light', 'background', '1:1'))).toBeInTheDocument();
    expect(within(light).getAllByText('1:1')).toHaveLength(2);
    const preview = within(brand).getByRole('group', { name: texts.previewOf(texts.themeName.light) });
    expect(preview).toHaveAttribute('data-theme', 'light');
    expect(preview.style.getPropertyValue('--color-primary')).toBe('#ffff00');
    expect(within(brand).getByRole('group', { name: texts.previewOf(texts.themeName.dark) })).toHaveAttribute('data-theme', 'dark');

    // One brand colour proposes a readable pair for each theme.
    const base = within(brand).getByLabelText(texts.brandColour);
    await user.clear(base);
    await user.type(base, '#ffcc00');
    expect(save).toBeEnabled();
    const lightPrimary = (within(light).getByLabelText(texts.primary) as HTMLInputElement).value;
    expect(lightPrimary).not.toBe('#ffcc00');
    await user.click(save);
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(Object.keys(patches[0]!)).toEqual(['brand']);
    expect(patches[0]!.brand?.light.primary).toBe(lightPrimary);
    expect(patches[0]!.brand?.dark.primary).toBe('#ffcc00');
    expect(document.getElementById('lms-brand')?.textContent).toContain(`--color-primary:${lightPrimary}`);

    // Back to the product's own colours.
    await user.click(await within(brand).findByRole('button', { name: texts.useProductColours }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toEqual({ brand: null });
    expect(document.getElementById('lms-brand')?.textContent).toBe('');
  });

  it('adds, moves and removes testimonials, and saves them as one list', async () => {
    const { user, patches } = renderSettings();
    const card = await section(texts.testimonialsTitle);
    await user.click(within(card).getByRole('button', { name: texts.addTestimonial }));
    const third = within(card).getByRole('group', { name: texts.testimonial(3) });
    // The new entry's first field has the focus.
    expect(within(third).getByLabelText(texts.quote)).toHaveFocus();
    await user.keyboard('Patient and kind.');
    await user.type(within(third).getByLabelText(texts.personName), 'Kiran');

    // Up twice from the keyboard: focus stays on the moved entry's button.
    await user.click(within(card).getByRole('button', { name: texts.moveUp(texts.testimonial(3)) }));
    expect(within(card).getByRole('button', { name: texts.moveUp(texts.testimonial(2)) })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(within(card).getByRole('button', { name: texts.moveDown(texts.testimonial(1)) })).toHaveFocus();
    expect(within(card).getByRole('button', { name: texts.moveUp(texts.testimonial(1)) })).toBeDisabled();
    await user.click(within(card).getByRole('button', { name: texts.remove(texts.testimonial(3)) }));
    await user.click(within(card).getByRole('button', { name: texts.save }));

    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({
      testimonials: [
        { quote: 'Patient and kind.', name: 'Kiran', role: '' },
        { quote: 'Clear and calm.', name: 'Ravi', role: 'Analyst' },
      ],
    });
    expect(getSite().testimonials.map((testimonial) => testimonial.name)).toEqual(['Kiran', 'Ravi']);
  });

  it('keeps the product’s questions until the admin writes their own, and goes back to them', async () => {
    const { user, patches } = renderSettings({
      ...saved,
      site: { ...saved.site, faq: [{ question: 'Is there a certificate?', answer: 'Yes.' }] },
    });
    const card = await section(texts.faqTitle);
    expect(within(card).getByLabelText(texts.question)).toHaveValue('Is there a certificate?');
    await user.click(within(card).getByRole('button', { name: texts.useProductQuestions }));
    await waitFor(() => expect(patches).toEqual([{ faq: null }]));
    expect(await within(card).findByText(texts.productQuestions)).toBeInTheDocument();
  });

  it('shows the seller’s fields the environment sets as read-only, naming the variable, and sends them as they are', async () => {
    const { user, patches } = renderSettings({ ...saved, fromEnvironment: { legalName: true, gstin: false, stateCode: true } });
    const seller = await section(texts.sellerTitle);
    const legalName = within(seller).getByLabelText(texts.legalName);
    expect(legalName).toHaveAttribute('readonly');
    expect(legalName).toHaveAccessibleDescription(texts.fromEnvironment('SELLER_NAME'));
    expect(within(seller).getByLabelText(texts.state)).toHaveAttribute('readonly');
    expect(within(seller).getByLabelText(texts.state)).toHaveValue('Karnataka (29)');
    expect(within(seller).getByText(texts.fromEnvironment('SELLER_STATE'))).toBeInTheDocument();
    expect(within(seller).getByLabelText(texts.gstin)).not.toHaveAttribute('readonly');
    await user.type(legalName, ' changed');
    await user.click(within(seller).getByRole('button', { name: texts.save }));
    await waitFor(() => expect(patches).toEqual([{ seller: { legalName: 'Asha Learning Pvt Ltd', gstin: '', stateCode: '29' } }]));
  });

  it('lists the legal pages, marking those still on the template', async () => {
    renderSettings();
    const legal = await section(texts.legalTitle);
    const rows = within(legal).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      `${texts.legalPages.terms}${texts.written}`,
      `${texts.legalPages.privacy}${texts.template}`,
      `${texts.legalPages['refund-policy']}${texts.template}`,
    ]);
    expect(within(legal).getByRole('link', { name: texts.legalPages['refund-policy'] })).toHaveAttribute('href', '/refund-policy');
  });
});

describe('the logo', () => {
  beforeEach(() => {
    FakeUpload.install();
    window.confirm = vi.fn(() => true);
  });

  it('uploads with a progress bar, shows the new logo, and is removed after confirming', async () => {
    const { calls } = renderSettings();
    const user = userEvent.setup({ applyAccept: false });
    const card = await section(texts.logoTitle);
    expect(within(card).getByText(texts.noLogo)).toBeInTheDocument();

    // Not a picture the server takes: said at once, nothing sent.
    await user.upload(within(card).getByLabelText(texts.chooseLogoFile), new File(['GIF89a'], 'logo.gif', { type: 'image/gif' }));
    expect(await findToast(answers.logoNotImage)).toBeInTheDocument();
    expect(FakeUpload.made).toEqual([]);

    await user.upload(within(card).getByLabelText(texts.chooseLogoFile), new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    const upload = FakeUpload.last!;
    expect(upload.method).toBe('PUT');
    expect(upload.url).toBe('/api/v1/settings/logo');
    expect((upload.body!.get('logo') as File).name).toBe('logo.svg');
    upload.progress(0.4);
    expect(await within(card).findByRole('progressbar', { name: texts.uploadProgress })).toHaveAttribute('value', '40');
    const logo = { url: '/media/site/logo-1.svg', width: 64, height: 64 };
    upload.answer(200, { success: true, message: answers.logoSaved, settings: { ...saved, site: { ...saved.site, logo } } });
    expect(await findToast(answers.logoSaved)).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: texts.currentLogo })).toHaveAttribute('src', logo.url);
    expect(getSite().logo).toEqual(logo);
    expect(within(card).queryByRole('progressbar')).not.toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: texts.removeLogo }));
    expect(window.confirm).toHaveBeenCalledWith(texts.removeLogoConfirm);
    expect(await findToast(answers.logoRemoved)).toBeInTheDocument();
    expect(calls.some((call) => call.init.method === 'DELETE' && call.url === '/api/v1/settings/logo')).toBe(true);
    expect(within(card).queryByRole('img')).not.toBeInTheDocument();
    expect(getSite().logo).toBeNull();
  });

  it('is kept when the removal is not confirmed', async () => {
    window.confirm = vi.fn(() => false);
    const { user, calls } = renderSettings({ ...saved, site: { ...saved.site, logo: { url: '/media/site/logo.png', width: 64, height: 64 } } });
    const card = await section(texts.logoTitle);
    await user.click(within(card).getByRole('button', { name: texts.removeLogo }));
    expect(calls.filter((call) => call.init.method === 'DELETE')).toEqual([]);
    expect(within(card).getByRole('img', { name: texts.currentLogo })).toBeInTheDocument();
  });
});
