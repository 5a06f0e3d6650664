import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

const jsquash = ['@jsquash/avif', '@jsquash/webp', '@jsquash/jpeg', '@jsquash/png', '@jsquash/resize', '@jsquash/oxipng'];

export default defineConfig({
  plugins: [
    react(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: {
        name: 'Pixel Converter',
        short_name: 'Pixel Converter',
        description: 'Convert images to JPG, PNG, WebP and AVIF in your browser. Nothing is uploaded.',
        start_url: '/',
        display: 'standalone',
        theme_color: '#4338ca',
        background_color: '#f6f7fb',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        // The shell and every codec the app can load, so conversions work offline after the first visit.
        globPatterns: ['**/*.{js,css,html,svg,wasm,webmanifest}'],
        // Never loaded here: the threaded AVIF encoder needs cross-origin isolation, which static hosts do not
        // give; hqx and magic-kernel are resize methods the pipeline does not use.
        globIgnores: ['**/avif_enc_mt*', '**/squooshhqx*', '**/jsquash_magic_kernel*'],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        navigateFallback: '/index.html',
        cleanupOutdatedCaches: true,
        // The first visit's page is controlled too, so it works offline without a reload.
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  worker: { format: 'es' },
  // The codecs load their .wasm by URL relative to their own module; pre-bundling would break that.
  optimizeDeps: { exclude: jsquash },
  build: { target: 'es2022' },
  preview: { port: 4173, strictPort: true },
});
