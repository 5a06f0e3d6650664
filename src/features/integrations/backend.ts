import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { IntegrationConfig } from './integrationConfig.ts';

/**
 * The spec's backend call: `upsert_pixel_email` through supabase-js with the project's anonymous key, as a TanStack
 * Query mutation (one retry, then the failure is logged). Loaded only by a build that configures the backend, the
 * first time it is needed.
 */

type Backend = NonNullable<IntegrationConfig['backend']>;

let client: { backend: Backend; supabase: SupabaseClient; queries: QueryClient } | null = null;

function clientFor(backend: Backend) {
  if (client?.backend !== backend) {
    const supabase = createClient(backend.url, backend.anonKey, {
      // No sign-in screen exists: nothing to keep, refresh or read from the address bar.
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    client = { backend, supabase, queries: new QueryClient() };
  }
  return client;
}

export const RPC_RETRY_DELAY_MS = 2000;

/** Records the address (already trimmed and lower-cased) for the site's operator; never throws, never blocks. */
export function saveEmail(backend: Backend, email: string): void {
  const { supabase, queries } = clientFor(backend);
  const mutation = new MutationObserver(queries, {
    mutationKey: ['upsert_pixel_email'],
    mutationFn: async (userEmail: string) => {
      const { error } = await supabase.rpc('upsert_pixel_email', { user_email: userEmail });
      if (error) throw error;
    },
    retry: 1,
    retryDelay: RPC_RETRY_DELAY_MS,
  });
  mutation.mutate(email).catch((error: unknown) => console.error('Saving the e-mail address failed (conversion goes on):', error));
}
