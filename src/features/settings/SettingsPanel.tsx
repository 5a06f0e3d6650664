import { memo, useId, useMemo, useRef, type Dispatch, type ReactNode } from 'react';
import { useValueFromBeforeHydration } from '../../app/useValueFromBeforeHydration.ts';
import { ASPECT_RATIOS } from '../../../core/geometry.ts';
import { FORMATS, IMAGE_FORMATS, formatInfo } from '../../../core/formats.ts';
import { LOOK_VERDICT_TEXT, lookVerdict, smartTarget } from '../../../core/look.ts';
import { ASPECT_RATIO_LABELS, PRESETS, PRESET_LABELS, RANGES, targetSizeMissing, type AspectRatio, type ConversionSettings, type ImageFormat, type Range } from './settings.ts';
import { settingsReducer, type SettingsAction } from './settingsReducer.ts';

interface SettingsPanelProps {
  settings: ConversionSettings;
  dispatch: Dispatch<SettingsAction>;
  /** The e-mail field, which the spec places in this panel. */
  children?: ReactNode;
}

/*
 * The controls are memoised and their handlers stable (handlersFor), so a tap re-renders the one control it changed,
 * not the whole panel: on a phone during a batch the tap's frame is what the visitor waits for.
 */
const Slider = memo(function Slider({ label, value, range, unit = '', signed = false, onChange, disabled, hint }: {
  label: string;
  value: number;
  range: Range;
  unit?: string;
  signed?: boolean;
  onChange: (value: number) => void;
  disabled?: boolean;
  hint?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useValueFromBeforeHydration(input, (element) => Number(element.value), value, onChange);
  const shown = `${signed && value > 0 ? '+' : ''}${value}${unit}`;
  return (
    <div className="field">
      <div className="field__row">
        <label htmlFor={id}>{label}</label>
        <span className="value-box">
          <output htmlFor={id} className="field__value">
            {shown}
          </output>
        </span>
      </div>
      <input
        ref={input}
        id={id}
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        disabled={disabled}
        aria-valuetext={shown}
        onChange={(event) => onChange(Number(event.target.value))}
      />
      {hint ? <p className="field__hint">{hint}</p> : null}
    </div>
  );
});

const Toggle = memo(function Toggle({ label, checked, onChange, disabled, description }: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  description?: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useValueFromBeforeHydration(input, (element) => element.checked, checked, onChange);
  return (
    <div className="toggle">
      <input ref={input} id={id} type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>
        <span>{label}</span>
        {description ? <small>{description}</small> : null}
      </label>
    </div>
  );
});

/** A whole-number input where blank means "not set". */
const IntegerField = memo(function IntegerField({ label, value, range, placeholder, hint, error, onChange }: {
  label: string;
  value: number | null;
  range: Range;
  placeholder: string;
  hint?: string;
  /** Shown under the field, which is then marked invalid. */
  error?: string;
  onChange: (value: number | null) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const input = useRef<HTMLInputElement>(null);
  useValueFromBeforeHydration(input, (element) => (element.value === '' ? null : Number(element.value)), value, onChange);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="number"
        inputMode="numeric"
        min={range.min}
        max={range.max}
        step={1}
        placeholder={placeholder}
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      />
      {hint ? <p className="field__hint">{hint}</p> : null}
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
});

/*
 * React sets an <input>'s name and type again each time it re-renders the element (for radios, leaving the group and
 * joining it again), and a <select>'s options' selected state: these three re-render only when their own value
 * changes, not on every other setting's tap.
 */
const FormatField = memo(function FormatField({ value, onChange }: { value: ImageFormat; onChange: (format: ImageFormat) => void }) {
  const labelId = useId();
  const group = useRef<HTMLDivElement>(null);
  useValueFromBeforeHydration(group, (element) => IMAGE_FORMATS.find((format) => element.querySelector<HTMLInputElement>(`input[value="${format}"]`)?.checked) ?? value, value, onChange);
  return (
    <div className="field">
      <span className="field__label" id={labelId}>
        Output format
      </span>
      <div ref={group} className="segmented" role="radiogroup" aria-labelledby={labelId}>
        {IMAGE_FORMATS.map((format) => (
          <label key={format} className={`segmented__option${value === format ? ' is-active' : ''}`}>
            <input type="radio" name="output-format" value={format} checked={value === format} onChange={() => onChange(format)} />
            {FORMATS[format].label}
          </label>
        ))}
      </div>
    </div>
  );
});

const BackgroundField = memo(function BackgroundField({ value, formatLabel, onChange }: { value: string; formatLabel: string; onChange: (colour: string) => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  useValueFromBeforeHydration(input, (element) => element.value, value, onChange);
  return (
    <div className="field field--inline">
      <label htmlFor={id}>Background colour</label>
      <input ref={input} id={id} type="color" value={value} onChange={(event) => onChange(event.target.value)} />
      <span className="field__hint">{formatLabel} has no transparency; transparent areas get this colour.</span>
    </div>
  );
});

const AspectRatioField = memo(function AspectRatioField({ value, onChange }: { value: AspectRatio; onChange: (ratio: AspectRatio) => void }) {
  const id = useId();
  const select = useRef<HTMLSelectElement>(null);
  useValueFromBeforeHydration(select, (element) => element.value as AspectRatio, value, onChange);
  return (
    <div className="field">
      <label htmlFor={id}>Aspect ratio</label>
      <select ref={select} id={id} value={value} onChange={(event) => onChange(event.target.value as AspectRatio)}>
        {ASPECT_RATIOS.map((ratio) => (
          <option key={ratio} value={ratio}>
            {ASPECT_RATIO_LABELS[ratio]}
          </option>
        ))}
      </select>
    </div>
  );
});

/** One handler per control, made once: `dispatch` never changes. */
function handlersFor(dispatch: Dispatch<SettingsAction>) {
  const flag = (field: Extract<SettingsAction, { type: 'setFlag' }>['field']) => (value: boolean) => dispatch({ type: 'setFlag', field, value });
  const adjustment = (field: Extract<SettingsAction, { type: 'setAdjustment' }>['field']) => (value: number) => dispatch({ type: 'setAdjustment', field, value });
  return {
    format: (format: ImageFormat) => dispatch({ type: 'setFormat', format }),
    backgroundColor: (value: string) => dispatch({ type: 'setBackgroundColor', value }),
    aspectRatio: (ratio: AspectRatio) => dispatch({ type: 'setAspectRatio', ratio }),
    quality: (value: number) => dispatch({ type: 'setQuality', value }),
    width: (value: number | null) => dispatch({ type: 'setWidth', value }),
    height: (value: number | null) => dispatch({ type: 'setHeight', value }),
    brightness: adjustment('brightness'),
    contrast: adjustment('contrast'),
    saturation: adjustment('saturation'),
    stripMetadata: flag('stripMetadata'),
    keepOriginalIfLarger: flag('keepOriginalIfLarger'),
    enableCompression: flag('enableCompression'),
    autoCompress: flag('autoCompress'),
    enableTargetSize: flag('enableTargetSize'),
    compressionLevel: (value: number) => dispatch({ type: 'setCompressionLevel', value }),
    targetFileSize: (value: number | null) => dispatch({ type: 'setTargetFileSize', value }),
  };
}

/** What a compression level asks of each image under Smart compression (core/look.ts). */
function smartLevelHint(compressionLevel: number): string {
  const target = smartTarget(compressionLevel);
  return `Each image scores at least ${target} of 100 on SSIMULACRA2 (${LOOK_VERDICT_TEXT[lookVerdict(target)].toLowerCase()}).`;
}

/**
 * Settings stay editable while a batch runs: each run (and each Retry) takes the settings of its moment, so a
 * change only affects what is converted next. (Disabling the whole panel also restyled every control at the
 * start and end of every batch, on a UI thread that shares the cores with the workers.)
 */
export function SettingsPanel({ settings, dispatch, children }: SettingsPanelProps) {
  const output = formatInfo(settings.outputFormat);
  const quality = output.quality !== null;
  const on = useMemo(() => handlersFor(dispatch), [dispatch]);

  return (
    <section className="card settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Conversion Settings</h2>
      <fieldset className="settings__group">
        <legend className="visually-hidden">Conversion settings</legend>

        <FormatField value={settings.outputFormat} onChange={on.format} />

        {quality ? (
          <Slider
            label="Quality"
            value={settings.quality}
            range={RANGES.quality}
            unit="%"
            disabled={settings.autoCompress || settings.enableTargetSize}
            hint={
              settings.enableTargetSize
                ? 'The target file size chooses the quality.'
                : settings.autoCompress
                  ? 'Smart compression chooses each image’s quality from how it looks.'
                  : output.quality?.losslessAtMax
                    ? `${output.label} is lossless at 100%.`
                    : undefined
            }
            onChange={on.quality}
          />
        ) : (
          <p className="field__hint">{output.label} is lossless: there is no quality setting.</p>
        )}

        {!output.alpha ? <BackgroundField value={settings.backgroundColor} formatLabel={output.label} onChange={on.backgroundColor} /> : null}

        <h3>Size</h3>
        <div className="field">
          <span className="field__label">Quick presets</span>
          <div className="chip-row">
            {PRESETS.map((preset) => {
              // A preset is on while the size settings are what it would set.
              const applied = settingsReducer(settings, { type: 'applyPreset', preset });
              const active = applied.aspectRatio === settings.aspectRatio && applied.resizeWidth === settings.resizeWidth && applied.resizeHeight === settings.resizeHeight;
              return (
                <button key={preset} type="button" className={`chip${active ? ' chip--active' : ''}`} aria-pressed={active} onClick={() => dispatch({ type: 'applyPreset', preset })}>
                  {PRESET_LABELS[preset]}
                </button>
              );
            })}
          </div>
        </div>
        <AspectRatioField value={settings.aspectRatio} onChange={on.aspectRatio} />
        <div className="field-pair">
          <IntegerField label="Width (px)" value={settings.resizeWidth} range={RANGES.dimension} placeholder="Auto" onChange={on.width} />
          <IntegerField label="Height (px)" value={settings.resizeHeight} range={RANGES.dimension} placeholder="Auto" onChange={on.height} />
        </div>
        <div className="field">
          <span className="field__label">Rotation</span>
          <div className="rotation">
            <button type="button" className="button button--ghost" onClick={() => dispatch({ type: 'rotate', direction: 'left' })}>
              ⟲ Rotate left
            </button>
            <span className="value-box">
              <output aria-live="polite" aria-label="Rotation" data-testid="rotation-value">
                {settings.rotation}°
              </output>
            </span>
            <button type="button" className="button button--ghost" onClick={() => dispatch({ type: 'rotate', direction: 'right' })}>
              Rotate right ⟳
            </button>
          </div>
        </div>

        <h3>Adjustments</h3>
        <Slider label="Brightness" value={settings.brightness} range={RANGES.adjustment} signed onChange={on.brightness} />
        <Slider label="Contrast" value={settings.contrast} range={RANGES.adjustment} signed onChange={on.contrast} />
        <Slider label="Saturation" value={settings.saturation} range={RANGES.adjustment} signed onChange={on.saturation} />

        <h3>Compression and privacy</h3>
        <Toggle
          label="Strip metadata"
          description="Remove EXIF, GPS and camera data from the output."
          checked={settings.stripMetadata}
          onChange={on.stripMetadata}
        />
        <Toggle
          label="Keep the original when the output would be larger"
          description="For a conversion to the same format with nothing else changed."
          checked={settings.keepOriginalIfLarger}
          onChange={on.keepOriginalIfLarger}
        />
        <Toggle
          label="Optimised compression"
          description="Use the best encoders (jpegli, oxipng): smaller files, a little slower."
          checked={settings.enableCompression}
          onChange={on.enableCompression}
        />
        <Toggle
          label="Smart compression"
          description="Each image at the lowest quality that still looks as good as the level below asks."
          checked={settings.autoCompress}
          disabled={!quality}
          onChange={on.autoCompress}
        />
        {settings.autoCompress && quality ? (
          <Slider
            label="Compression level"
            value={settings.compressionLevel}
            range={RANGES.compressionLevel}
            unit="%"
            onChange={on.compressionLevel}
            hint={smartLevelHint(settings.compressionLevel)}
          />
        ) : null}
        <Toggle
          label="Target file size"
          description="Find the highest quality that fits a size."
          checked={settings.enableTargetSize}
          onChange={on.enableTargetSize}
        />
        {settings.enableTargetSize ? (
          <IntegerField
            label="Target size (KB)"
            value={settings.targetFileSize}
            range={RANGES.targetFileSize}
            placeholder="e.g. 200"
            hint={quality ? undefined : `${output.label} is lossless, so a target size cannot be reached by lowering quality.`}
            error={targetSizeMissing(settings) ? 'Enter a size in KB, or turn Target file size off.' : undefined}
            onChange={on.targetFileSize}
          />
        ) : null}
      </fieldset>
      <button type="button" className="link-button" onClick={() => dispatch({ type: 'reset' })}>
        Reset settings
      </button>
      {children}
    </section>
  );
}
