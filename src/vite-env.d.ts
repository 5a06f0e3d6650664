/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_DONATE_PAYPAL_URL?: string;
  readonly VITE_DONATE_COFFEE_URL?: string;
  readonly VITE_SUPABASE_URL?: string;
  readonly VITE_SUPABASE_ANON_KEY?: string;
  readonly VITE_WEBHOOK_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
