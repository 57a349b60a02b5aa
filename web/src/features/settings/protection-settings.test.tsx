import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { answers } from '@lms/contract/answers';
import { DEFAULT_PROTECTION } from '@lms/contract/protection';
import type { Settings, SettingsUpdate } from '@lms/contract/settings';
import { DEFAULT_SITE } from '@lms/contract/site';
import { findToast, renderPage, stubApi } from '../../test/render';
import { setSite } from '../../lib/site';
import SettingsPage from './SettingsPage';
import { settingsTexts as texts } from './settings-texts';

const saved: Settings = {
  site: { ...DEFAULT_SITE, name: 'Asha Academy' },
  seller: { legalName: 'Asha Learning Pvt Ltd', gstin: '', stateCode: '29' },
  fromEnvironment: { legalName: false, gstin: false, stateCode: false },
  templates: [],
  protection: { ...DEFAULT_PROTECTION, fromEnvironment: { maxStreams: false, maxDevices: false } },
};

/** The settings page over a server holding `settings`; the PATCH bodies it received. */
function renderSettings(settings: Settings = saved) {
  let current = settings;
  const patches: SettingsUpdate[] = [];
  stubApi({
    'GET /api/v1/settings': () => ({ body: { success: true, message: answers.settingsFetched, settings: current } }),
    'PATCH /api/v1/settings': (init) => {
      const change = JSON.parse(init.body as string) as SettingsUpdate;
      patches.push(change);
      current = { ...current, protection: { ...current.protection, ...change.protection } };
      return { body: { success: true, message: answers.settingsSaved, settings: current } };
    },
  });
  return { ...renderPage(<SettingsPage />, { path: '/admin/settings' }), patches };
}

const card = () => screen.findByRole('region', { name: texts.protectionTitle });

afterEach(() => setSite(DEFAULT_SITE));

describe('the content protection settings', () => {
  it('shows the saved values and saves the whole group', async () => {
    const { user, patches } = renderSettings();
    const section = await card();
    const streams = within(section).getByLabelText(texts.maxStreams);
    expect(streams).toHaveValue(2);
    expect(within(section).getByLabelText(texts.maxDevices)).toHaveValue(0);
    expect(within(section).getByLabelText(texts.watermarkOpacity)).toHaveValue('30');
    expect(within(section).getByRole('radio', { name: texts.watermarkSizes.medium })).toBeChecked();
    expect(within(section).getByLabelText(texts.riskAddressBlocks)).toHaveValue(4);
    expect(within(section).getByLabelText(texts.riskRefusals)).toHaveValue(10);

    await user.clear(streams);
    await user.type(streams, '3');
    await user.clear(within(section).getByLabelText(texts.maxDevices));
    await user.type(within(section).getByLabelText(texts.maxDevices), '5');
    await user.click(within(section).getByRole('radio', { name: texts.watermarkSizes.large }));
    await user.clear(within(section).getByLabelText(texts.riskRefusals));
    await user.type(within(section).getByLabelText(texts.riskRefusals), '25');
    await user.click(within(section).getByRole('button', { name: texts.save }));

    expect(await findToast(answers.settingsSaved)).toBeInTheDocument();
    expect(patches).toEqual([
      { protection: { maxStreams: 3, maxDevices: 5, watermarkOpacity: 30, watermarkSize: 'large', riskAddressBlocks: 4, riskRefusals: 25 } },
    ]);
  });

  it('previews the watermark at the chosen opacity and size as they change', async () => {
    const { user } = renderSettings();
    const section = await card();
    const preview = within(section).getByTestId('watermark-preview');
    const mark = within(preview).getByText(texts.previewEmail, { exact: false });
    expect(mark).toHaveTextContent(texts.previewCode);
    expect(mark.style.opacity).toBe('0.3');
    expect(mark).toHaveAttribute('data-size', 'medium');

    const opacity = within(section).getByLabelText(texts.watermarkOpacity);
    fireEvent.change(opacity, { target: { value: '33' } });
    expect(mark.style.opacity).toBe('0.33');
    expect(within(section).getByText(texts.watermarkOpacityValue(33))).toBeInTheDocument();

    await user.click(within(section).getByRole('radio', { name: texts.watermarkSizes.small }));
    // jsdom drops the container units the size is given in: the setting the preview draws is checked instead.
    expect(mark).toHaveAttribute('data-size', 'small');
    await user.click(within(section).getByRole('radio', { name: texts.watermarkSizes.large }));
    expect(mark).toHaveAttribute('data-size', 'large');
  });

  it('refuses a value out of range before sending it, in the server’s words', async () => {
    const { user, patches } = renderSettings();
    const section = await card();
    const blocks = within(section).getByLabelText(texts.riskAddressBlocks);
    await user.clear(blocks);
    await user.type(blocks, '1');
    await user.click(within(section).getByRole('button', { name: texts.save }));
    expect(await findToast(answers.settingRange('Address blocks', 2, 50))).toBeInTheDocument();

    await user.clear(blocks);
    await user.type(blocks, '6');
    await user.clear(within(section).getByLabelText(texts.maxStreams));
    await user.click(within(section).getByRole('button', { name: texts.save }));
    expect(await findToast(answers.settingRange('Simultaneous streams', 1, 10))).toBeInTheDocument();
    expect(patches).toEqual([]);
  });

  it('shows the limits the server’s environment sets as read-only, naming the variable', async () => {
    const { user, patches } = renderSettings({
      ...saved,
      protection: { ...saved.protection, maxStreams: 3, maxDevices: 4, fromEnvironment: { maxStreams: true, maxDevices: true } },
    });
    const section = await card();
    const streams = within(section).getByLabelText(texts.maxStreams);
    expect(streams).toHaveAttribute('readonly');
    expect(streams).toHaveValue(3);
    expect(streams).toHaveAccessibleDescription(texts.fromEnvironment('MAX_STREAMS'));
    const devices = within(section).getByLabelText(texts.maxDevices);
    expect(devices).toHaveAttribute('readonly');
    expect(devices).toHaveAccessibleDescription(texts.fromEnvironment('MAX_DEVICES'));

    await user.type(streams, '9');
    expect(streams).toHaveValue(3);
    await user.click(within(section).getByRole('button', { name: texts.save }));
    expect(await findToast(answers.settingsSaved)).toBeInTheDocument();
    expect(patches[0]!.protection).toMatchObject({ maxStreams: 3, maxDevices: 4 });
  });
});
