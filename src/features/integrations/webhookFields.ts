import type { ConversionSettings } from '../../../core/contract.ts';

/**
 * The form fields of the spec's two webhook actions (section 7), exactly those and in its order, as strings ready
 * to form-encode. Pure: the page's clock, zone, address and session come in as `PageContext`.
 */

export interface PageContext {
  now: Date;
  /** The visitor's IANA time zone (Intl), in which date and time are given. */
  timeZone: string;
  /** Names the page the conversion was started from. */
  page: string;
  userAgent: string;
  sessionId: string;
}

export interface StartedConversion {
  /** Already trimmed and lower-cased. */
  email: string;
  settings: ConversionSettings;
  files: readonly Pick<File, 'name' | 'size' | 'type'>[];
}

export interface CompletedConversion {
  email: string;
  settings: ConversionSettings;
  succeeded: number;
  failed: number;
  outputBytes: number;
}

export type WebhookFields = Readonly<Record<string, string>>;

/** Megabytes (1024-based, as the page shows sizes) rounded to 2 decimals: the spec's totals sent out. */
export function megabytes(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(2);
}

/** The part of an address after its `@`. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

/** Date (YYYY-MM-DD) and time (HH:MM:SS, 24-hour) on the visitor's clock, in their zone. */
export function clockFields(now: Date, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return { date: `${part('year')}-${part('month')}-${part('day')}`, time: `${part('hour')}:${part('minute')}:${part('second')}` };
}

const optionalNumber = (value: number | null) => (value === null ? '' : String(value));

export function conversionStartedFields(run: StartedConversion, context: PageContext): WebhookFields {
  const { settings, files } = run;
  const { date, time } = clockFields(context.now, context.timeZone);
  return {
    user_email: run.email,
    user_domain: emailDomain(run.email),
    conversion_count: String(files.length),
    output_format: settings.outputFormat,
    quality_setting: String(settings.quality),
    resize_width: optionalNumber(settings.resizeWidth),
    resize_height: optionalNumber(settings.resizeHeight),
    strip_metadata: String(settings.stripMetadata),
    enable_compression: String(settings.enableCompression),
    compression_level: String(settings.compressionLevel),
    total_file_size_mb: megabytes(files.reduce((sum, file) => sum + file.size, 0)),
    file_types: [...new Set(files.map((file) => file.type))].join(', '),
    file_names: files.map((file) => file.name).join(', '),
    timestamp: context.now.toISOString(),
    date,
    time,
    timezone: context.timeZone,
    triggered_from: context.page,
    user_agent: context.userAgent,
    action: 'image_conversion_started',
    session_id: context.sessionId,
  };
}

export function conversionCompletedFields(run: CompletedConversion, context: PageContext): WebhookFields {
  const { date, time } = clockFields(context.now, context.timeZone);
  return {
    user_email: run.email,
    user_domain: emailDomain(run.email),
    conversion_count: String(run.succeeded + run.failed),
    successful_conversions: String(run.succeeded),
    failed_conversions: String(run.failed),
    output_format: run.settings.outputFormat,
    quality_setting: String(run.settings.quality),
    total_output_size_mb: megabytes(run.outputBytes),
    timestamp: context.now.toISOString(),
    date,
    time,
    timezone: context.timeZone,
    triggered_from: context.page,
    action: 'image_conversion_completed',
    session_id: context.sessionId,
  };
}
