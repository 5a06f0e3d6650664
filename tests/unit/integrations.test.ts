import { describe, expect, it } from 'vitest';
import { integrationConfig, integrationOrigins, privacyNote } from '../../src/features/integrations/integrationConfig.ts';
import { clockFields, conversionCompletedFields, conversionStartedFields, emailDomain, megabytes, type PageContext } from '../../src/features/integrations/webhookFields.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';

const MB = 1024 * 1024;

const context: PageContext = {
  now: new Date('2026-11-22T23:30:05.123Z'),
  timeZone: 'Asia/Tokyo',
  page: 'https://convert.example/',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/131',
  sessionId: 'session-1',
};

describe('integrationConfig', () => {
  it('is all off when nothing is set, or set to blanks', () => {
    expect(integrationConfig({})).toEqual({ backend: null, webhookUrl: null });
    expect(integrationConfig({ VITE_SUPABASE_URL: ' ', VITE_SUPABASE_ANON_KEY: '', VITE_WEBHOOK_URL: '  ' })).toEqual({ backend: null, webhookUrl: null });
  });

  it('turns the backend on only with both its URL and its key, the webhook with its URL', () => {
    expect(integrationConfig({ VITE_SUPABASE_URL: ' https://abc.supabase.co ', VITE_SUPABASE_ANON_KEY: 'key' })).toEqual({
      backend: { url: 'https://abc.supabase.co', anonKey: 'key' },
      webhookUrl: null,
    });
    expect(integrationConfig({ VITE_WEBHOOK_URL: 'https://hooks.example/catch/1' })).toEqual({ backend: null, webhookUrl: 'https://hooks.example/catch/1' });
  });

  it('refuses half a backend and URLs that are not http(s), so the build fails instead of shipping a dead call', () => {
    expect(() => integrationConfig({ VITE_SUPABASE_URL: 'https://abc.supabase.co' })).toThrow(/VITE_SUPABASE_ANON_KEY/);
    expect(() => integrationConfig({ VITE_SUPABASE_ANON_KEY: 'key' })).toThrow(/VITE_SUPABASE_URL/);
    expect(() => integrationConfig({ VITE_SUPABASE_URL: 'abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'key' })).toThrow(/not a URL/);
    expect(() => integrationConfig({ VITE_WEBHOOK_URL: 'ftp://hooks.example/' })).toThrow(/http\(s\)/);
  });

  it('names the origins the calls reach, once each', () => {
    expect(integrationOrigins(integrationConfig({}))).toEqual([]);
    const both = integrationConfig({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'k', VITE_WEBHOOK_URL: 'https://hooks.example:8443/a?b=c' });
    expect(integrationOrigins(both)).toEqual(['https://abc.supabase.co', 'https://hooks.example:8443']);
    const same = integrationConfig({ VITE_SUPABASE_URL: 'https://api.example', VITE_SUPABASE_ANON_KEY: 'k', VITE_WEBHOOK_URL: 'https://api.example/hook' });
    expect(integrationOrigins(same)).toEqual(['https://api.example']);
  });
});

describe('privacyNote', () => {
  it("keeps the spec's promise only when nothing is sent", () => {
    expect(privacyNote({ backend: null, webhookUrl: null })).toBe('Required to convert. Your e-mail is not stored, and your files stay on this device.');
  });

  it('says the address goes to the operator when the backend is configured', () => {
    const note = privacyNote({ backend: { url: 'https://abc.supabase.co', anonKey: 'k' }, webhookUrl: null });
    expect(note).toMatch(/e-mail address is sent to this site's operator/);
    expect(note).not.toMatch(/not stored/);
    expect(note).toMatch(/images never leave your device/);
  });

  it('adds conversion statistics and file names when the webhook is configured (it carries the address too)', () => {
    for (const backend of [null, { url: 'https://abc.supabase.co', anonKey: 'k' }]) {
      const note = privacyNote({ backend, webhookUrl: 'https://hooks.example/' });
      expect(note).toMatch(/e-mail address, conversion statistics and file names are sent to this site's operator/);
      expect(note).toMatch(/images never leave your device/);
    }
  });
});

describe('webhook fields', () => {
  it('rounds sizes to megabytes with 2 decimals (1024-based)', () => {
    expect(megabytes(0)).toBe('0.00');
    expect(megabytes(1.5 * MB)).toBe('1.50');
    expect(megabytes(1234567)).toBe('1.18');
    expect(megabytes(MB * 24.999)).toBe('25.00');
  });

  it('takes the domain after the @', () => {
    expect(emailDomain('ann.lee@mail.example.org')).toBe('mail.example.org');
  });

  it("gives date and time on the visitor's clock, in their zone", () => {
    expect(clockFields(context.now, 'Asia/Tokyo')).toEqual({ date: '2026-11-23', time: '08:30:05' });
    expect(clockFields(context.now, 'America/New_York')).toEqual({ date: '2026-11-22', time: '18:30:05' });
    expect(clockFields(new Date('2026-07-01T00:00:00Z'), 'UTC')).toEqual({ date: '2026-07-01', time: '00:00:00' });
  });

  it('image_conversion_started: exactly the spec fields, in its order, with the run and the page', () => {
    const files = [
      { name: 'beach.jpg', size: 3 * MB, type: 'image/jpeg' },
      { name: 'logo, final.png', size: 0.25 * MB, type: 'image/png' },
      { name: 'cat.jpg', size: 1 * MB, type: 'image/jpeg' },
    ];
    const settings = { ...DEFAULT_SETTINGS, outputFormat: 'avif' as const, quality: 65, resizeWidth: 1080, resizeHeight: null, stripMetadata: false };
    expect(conversionStartedFields({ email: 'ann@example.com', settings, files }, context)).toStrictEqual({
      user_email: 'ann@example.com',
      user_domain: 'example.com',
      conversion_count: '3',
      output_format: 'avif',
      quality_setting: '65',
      resize_width: '1080',
      resize_height: '',
      strip_metadata: 'false',
      enable_compression: 'true',
      compression_level: '85',
      total_file_size_mb: '4.25',
      file_types: 'image/jpeg, image/png',
      file_names: 'beach.jpg, logo, final.png, cat.jpg',
      timestamp: '2026-11-22T23:30:05.123Z',
      date: '2026-11-23',
      time: '08:30:05',
      timezone: 'Asia/Tokyo',
      triggered_from: 'https://convert.example/',
      user_agent: context.userAgent,
      action: 'image_conversion_started',
      session_id: 'session-1',
    });
    expect(Object.keys(conversionStartedFields({ email: 'a@b.co', settings: DEFAULT_SETTINGS, files }, context))).toEqual([
      'user_email', 'user_domain', 'conversion_count', 'output_format', 'quality_setting', 'resize_width', 'resize_height',
      'strip_metadata', 'enable_compression', 'compression_level', 'total_file_size_mb', 'file_types', 'file_names',
      'timestamp', 'date', 'time', 'timezone', 'triggered_from', 'user_agent', 'action', 'session_id',
    ]);
  });

  it('image_conversion_completed: exactly the spec fields, in its order, with the run outcome', () => {
    const fields = conversionCompletedFields({ email: 'bo@example.net', settings: DEFAULT_SETTINGS, succeeded: 4, failed: 1, outputBytes: 2.345 * MB }, context);
    expect(fields).toStrictEqual({
      user_email: 'bo@example.net',
      user_domain: 'example.net',
      conversion_count: '5',
      successful_conversions: '4',
      failed_conversions: '1',
      output_format: 'webp',
      quality_setting: '80',
      total_output_size_mb: '2.35',
      timestamp: '2026-11-22T23:30:05.123Z',
      date: '2026-11-23',
      time: '08:30:05',
      timezone: 'Asia/Tokyo',
      triggered_from: 'https://convert.example/',
      action: 'image_conversion_completed',
      session_id: 'session-1',
    });
  });
});
