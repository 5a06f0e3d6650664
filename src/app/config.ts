import { integrationConfig } from '../features/integrations/integrationConfig.ts';

/**
 * The one place that reads build-time configuration (VITE_… variables). Unset means the feature is off
 * or a sensible default applies; the app works fully without any of it.
 */
function optional(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export const config = {
  donation: {
    paypalUrl: optional(import.meta.env.VITE_DONATE_PAYPAL_URL) ?? 'https://www.paypal.com/donate',
    coffeeUrl: optional(import.meta.env.VITE_DONATE_COFFEE_URL) ?? 'https://www.buymeacoffee.com',
  },
  /** The spec's calls (section 7): off unless configured. */
  integrations: integrationConfig(import.meta.env),
} as const;
