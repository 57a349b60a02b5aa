import { WATERMARK_SIZES, type ProtectionSettings, type WatermarkSize } from '@lms/contract/protection';
import { useId, useState } from 'react';
import { FormField } from '../../lib/components/FormField';
import { WATERMARK_FONT } from '../../lib/components/watermark';
import { SettingsCard, useSaveSection, type SectionProps } from './SettingsCard';
import { settingsTexts as texts } from './settings-texts';

type NumberField = 'maxStreams' | 'maxDevices' | 'riskAddressBlocks' | 'riskRefusals';

/** A typed number as the schema reads it: an empty box is no number (the schema says so), not 0. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/**
 * Content protection: the accounts' limits (streams at once, signed-in devices), the watermark
 * (opacity and size, with a preview) and the sharing-risk thresholds, saved as one group. A limit
 * the server's environment sets (MAX_STREAMS, MAX_DEVICES) shows read-only: it wins over this page.
 */
export function ProtectionSection({ settings, onSaved, saveLabel }: SectionProps) {
  const { save, busy } = useSaveSection(onSaved);
  const { fromEnvironment, ...saved } = settings.protection;
  const [numbers, setNumbers] = useState<Record<NumberField, string>>({
    maxStreams: String(saved.maxStreams),
    maxDevices: String(saved.maxDevices),
    riskAddressBlocks: String(saved.riskAddressBlocks),
    riskRefusals: String(saved.riskRefusals),
  });
  const [opacity, setOpacity] = useState(saved.watermarkOpacity);
  const [size, setSize] = useState<WatermarkSize>(saved.watermarkSize);
  const opacityId = useId();
  const sizeName = useId();

  const field = (name: NumberField, label: string, hint: string, range: { min: number; max: number }, lockedBy?: string) => (
    <FormField
      label={label}
      name={name}
      type="number"
      inputMode="numeric"
      min={range.min}
      max={range.max}
      step={1}
      value={numbers[name]}
      readOnly={Boolean(lockedBy)}
      className={lockedBy ? 'bg-base-200' : ''}
      hint={lockedBy ? texts.fromEnvironment(lockedBy) : hint}
      onChange={(event) => setNumbers((current) => ({ ...current, [name]: event.target.value }))}
    />
  );

  function onSubmit() {
    const protection: ProtectionSettings = {
      maxStreams: numberOf(numbers.maxStreams),
      maxDevices: numberOf(numbers.maxDevices),
      watermarkOpacity: opacity,
      watermarkSize: size,
      riskAddressBlocks: numberOf(numbers.riskAddressBlocks),
      riskRefusals: numberOf(numbers.riskRefusals),
    };
    void save({ protection });
  }

  return (
    <SettingsCard id="settings-protection" title={texts.protectionTitle} intro={texts.protectionIntro} busy={busy} saveLabel={saveLabel} onSubmit={onSubmit}>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {field('maxStreams', texts.maxStreams, texts.maxStreamsHint, { min: 1, max: 10 }, fromEnvironment.maxStreams ? 'MAX_STREAMS' : undefined)}
        {field('maxDevices', texts.maxDevices, texts.maxDevicesHint, { min: 0, max: 20 }, fromEnvironment.maxDevices ? 'MAX_DEVICES' : undefined)}
      </div>

      <div className="grid gap-6 border-t border-base-300 pt-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <div className="flex flex-col gap-4">
          <div className="fieldset">
            <div className="flex items-baseline justify-between gap-2">
              <label htmlFor={opacityId} className="fieldset-legend text-sm">
                {texts.watermarkOpacity}
              </label>
              <output htmlFor={opacityId} className="text-sm tabular-nums">
                {texts.watermarkOpacityValue(opacity)}
              </output>
            </div>
            <input
              id={opacityId}
              type="range"
              className="range range-primary range-sm w-full"
              min={10}
              max={60}
              step={1}
              value={opacity}
              aria-valuetext={texts.watermarkOpacityValue(opacity)}
              onChange={(event) => setOpacity(Number(event.target.value))}
            />
          </div>
          <fieldset className="fieldset">
            <legend className="fieldset-legend text-sm">{texts.watermarkSize}</legend>
            <div className="join w-full">
              {WATERMARK_SIZES.map((option) => (
                <input
                  key={option}
                  type="radio"
                  name={sizeName}
                  value={option}
                  className="join-item btn btn-sm flex-1"
                  aria-label={texts.watermarkSizes[option]}
                  checked={size === option}
                  onChange={() => setSize(option)}
                />
              ))}
            </div>
          </fieldset>
        </div>
        <WatermarkPreview opacity={opacity} size={size} />
      </div>

      <div className="flex flex-col gap-1 border-t border-base-300 pt-4">
        <h3 className="font-semibold">{texts.riskTitle}</h3>
        <p className="text-sm text-base-content/80">{texts.riskHint}</p>
        <div className="grid gap-x-4 sm:grid-cols-2">
          {field('riskAddressBlocks', texts.riskAddressBlocks, texts.riskAddressBlocksHint, { min: 2, max: 50 })}
          {field('riskRefusals', texts.riskRefusals, texts.riskRefusalsHint, { min: 1, max: 500 })}
        </div>
      </div>
    </SettingsCard>
  );
}

/** The watermark over a dark 16:9 scene, at the chosen opacity and size, where a player might put it. */
function WatermarkPreview({ opacity, size }: { opacity: number; size: WatermarkSize }) {
  const captionId = useId();
  return (
    <figure className="flex flex-col gap-2" aria-labelledby={captionId}>
      <div
        data-testid="watermark-preview"
        className="@container relative aspect-video w-full overflow-hidden rounded-box bg-[radial-gradient(circle_at_30%_35%,#3b4252,#111318_70%)]"
        aria-hidden="true"
      >
        <svg viewBox="0 0 24 24" className="absolute top-1/2 left-1/2 size-[14cqw] -translate-x-1/2 -translate-y-1/2 text-white/25" fill="currentColor">
          <path d="M8 5v14l11-7z" />
        </svg>
        <span
          className="absolute top-[14%] left-[8%] font-mono leading-tight font-semibold text-white [text-shadow:0_0_2px_#000]"
          style={{ opacity: opacity / 100, fontSize: WATERMARK_FONT[size] }}
          data-size={size}
        >
          {texts.previewEmail}
          <br />
          {texts.previewCode}
        </span>
        <span className="absolute inset-x-0 bottom-0 h-[3%] bg-white/15">
          <span className="block h-full w-1/3 bg-white/50" />
        </span>
      </div>
      <figcaption id={captionId} className="text-xs text-base-content/70">
        <span className="font-semibold">{texts.watermarkPreview}:</span> {texts.watermarkPreviewNote}
      </figcaption>
    </figure>
  );
}
