import { createServer, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { CODEC_PACKAGES, UNLOADED_CODEC_FILES } from './wasm/codecs';

/** The browser's UI colour, in the manifest and the page's theme-color meta alike (the CSS's --primary too). */
const THEME_COLOUR = '#4338ca';

/** Fills %THEME_COLOUR% in index.html, so the page and the manifest cannot disagree. */
function themeColour(): Plugin {
  return { name: 'theme-colour', transformIndexHtml: (html) => html.replaceAll('%THEME_COLOUR%', THEME_COLOUR) };
}

/**
 * Renders the converter page into index.html at build time (src/entry-server.tsx through Vite's SSR loader, in
 * the build's mode so its env is the same), so the first paint needs no JavaScript; main.tsx hydrates it.
 */
function prerenderConverterPage(): Plugin {
  let mode = 'production';
  return {
    name: 'prerender-converter-page',
    apply: 'build',
    configResolved(config) {
      mode = config.mode;
    },
    async transformIndexHtml(html) {
      const server = await createServer({
        configFile: false,
        root: import.meta.dirname,
        mode,
        logLevel: 'error',
        plugins: [react()],
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderConverterPage } = (await server.ssrLoadModule('/src/entry-server.tsx')) as typeof import('./src/entry-server');
        const root = '<div id="root"></div>';
        if (!html.includes(root)) throw new Error(`index.html has no ${root} to render into`);
        return html.replace(root, `<div id="root">${renderConverterPage()}</div>`);
      } finally {
        await server.close();
      }
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    themeColour(),
    prerenderConverterPage(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: {
        name: 'Pixel Converter',
        short_name: 'Pixel Converter',
        description: 'Convert images to JPG, PNG, WebP and AVIF in your browser. Nothing is uploaded.',
        start_url: '/',
        display: 'standalone',
        theme_color: THEME_COLOUR,
        background_color: '#f6f7fb',
        icons: [{ src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
      },
      workbox: {
        // The shell and every codec the app can load, so conversions work offline after the first visit.
        globPatterns: ['**/*.{js,css,html,svg,wasm,webmanifest}'],
        globIgnores: UNLOADED_CODEC_FILES,
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
  optimizeDeps: { exclude: CODEC_PACKAGES },
  build: { target: 'es2022' },
  preview: { port: 4173, strictPort: true },
});
