/**
 * Which of the spec's calls (section 7) this build makes, read from its VITE_… variables. Unset means off: with
 * nothing configured the app makes no request beyond its own origin. Pure, so the build can check the same values
 * the page will use (vite.config.ts fails a build with a malformed one rather than ship a silent no-op).
 */
export interface IntegrationConfig {
  /** The e-mail RPC (`upsert_pixel_email`) through supabase-js, when both the project URL and its anonymous key are set. */
  backend: { url: string; anonKey: string } | null;
  /** Where the conversion-started and conversion-completed form posts go. */
  webhookUrl: string | null;
}

export interface IntegrationEnv {
  VITE_SUPABASE_URL?: string;
  VITE_SUPABASE_ANON_KEY?: string;
  VITE_WEBHOOK_URL?: string;
}

function setting(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function httpUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${name} must be an http(s) URL: ${JSON.stringify(value)}`);
  return value;
}

export function integrationConfig(env: IntegrationEnv): IntegrationConfig {
  const supabaseUrl = setting(env.VITE_SUPABASE_URL);
  const anonKey = setting(env.VITE_SUPABASE_ANON_KEY);
  if ((supabaseUrl === null) !== (anonKey === null)) {
    throw new Error('Set both VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY for the e-mail RPC, or neither.');
  }
  const webhookUrl = setting(env.VITE_WEBHOOK_URL);
  return {
    backend: supabaseUrl && anonKey ? { url: httpUrl('VITE_SUPABASE_URL', supabaseUrl), anonKey } : null,
    webhookUrl: webhookUrl ? httpUrl('VITE_WEBHOOK_URL', webhookUrl) : null,
  };
}

/** The origins the configured calls reach: what a Content-Security-Policy's connect-src must add to 'self'. */
export function integrationOrigins(config: IntegrationConfig): string[] {
  const urls = [config.backend?.url, config.webhookUrl].filter((url): url is string => url !== null && url !== undefined);
  return [...new Set(urls.map((url) => new URL(url).origin))];
}

/** The sentence under the e-mail field: the spec's promise when nothing is sent, and plainly what is sent otherwise. */
export function privacyNote(config: IntegrationConfig): string {
  if (config.webhookUrl) {
    return "Required to convert. Your e-mail address, conversion statistics and file names are sent to this site's operator; your images never leave your device.";
  }
  if (config.backend) return "Required to convert. Your e-mail address is sent to this site's operator; your images never leave your device.";
  return 'Required to convert. Your e-mail is not stored, and your files stay on this device.';
}
