import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, defineConfig, type IndexHtmlTransformContext, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { minimal2023Preset } from '@vite-pwa/assets-generator/config';
import { VitePWA } from 'vite-plugin-pwa';
import type { PrerenderedPage } from './src/entry-server.tsx';
import { headersFile, headersFor, hostHeaderRules, type HeaderRule } from './src/app/hostHeaders.ts';
import { integrationConfig, integrationOrigins } from './src/features/integrations/integrationConfig.ts';
import { CODEC_PACKAGES, UNLOADED_CODEC_FILES } from './wasm/packages.ts';
import { SHARE_TARGET } from './core/shareTarget.ts';
import { CROSS_ORIGIN_ISOLATION } from './core/isolation.ts';
import { SOURCE_FORMAT_IDS, sourceFormatInfo } from './core/formats.ts';

/** The browser's UI colour, in the manifest and the page's theme-color meta alike (the CSS's --primary too). */
const THEME_COLOUR = '#4338ca';

/** Fills %THEME_COLOUR% in index.html, so the page and the manifest cannot disagree. */
function themeColour(): Plugin {
  return { name: 'theme-colour', transformIndexHtml: (html) => html.replaceAll('%THEME_COLOUR%', THEME_COLOUR) };
}

/**
 * Renders the app's pages at build time (src/entry-server.tsx through Vite's SSR loader, in the build's mode so its
 * env is the same), so the first paint needs no JavaScript; main.tsx hydrates them. The converter goes into
 * index.html; the not-found page into 404.html, the same shell, which static hosts (GitHub Pages, Netlify, Cloudflare
 * Pages) answer an unknown path with, so such a path never paints the converter. `vite preview` does the same here.
 * The stylesheet goes inline in both.
 */
/** The not-found page's file in the build: the name static hosts look for. */
const NOT_FOUND_PAGE = '404.html';

function prerenderPages(): Plugin {
  let mode = 'production';
  let notFoundHtml: string | null = null;
  return {
    name: 'prerender-pages',
    configResolved(config) {
      mode = config.mode;
    },
    transformIndexHtml: { order: 'post', handler: prerender },
    generateBundle: {
      order: 'post',
      handler() {
        if (notFoundHtml === null) throw new Error('index.html was not prerendered, so neither was 404.html');
        this.emitFile({ type: 'asset', fileName: NOT_FOUND_PAGE, source: notFoundHtml });
      },
    },
    configurePreviewServer(server) {
      const outDir = resolve(server.config.root, server.config.build.outDir);
      // What a static host does: a file where there is one, the converter on "/", and 404.html with its status otherwise.
      server.middlewares.use((request, response, next) => {
        const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
        const isPage = request.method === 'GET' || request.method === 'HEAD';
        if (!isPage || pathname === '/' || existsSync(join(outDir, pathname))) return next();
        response.statusCode = 404;
        response.setHeader('Content-Type', 'text/html; charset=utf-8');
        response.end(request.method === 'HEAD' ? undefined : readFileSync(join(outDir, NOT_FOUND_PAGE)));
      });
    },
  };

  async function prerender(html: string, { bundle }: IndexHtmlTransformContext): Promise<string> {
    if (!bundle) return html;
    const pages = await renderPages();
    const stylesheet = takeStylesheet(html, bundle);
    const page = (name: PrerenderedPage) => stylesheet.inline(fillRoot(html, name, pages[name]));
    notFoundHtml = page('notFound');
    return page('converter');
  }

  async function renderPages(): Promise<Record<PrerenderedPage, string>> {
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
      const { renderPage } = (await server.ssrLoadModule('/src/entry-server.tsx')) as typeof import('./src/entry-server.tsx');
      return { converter: renderPage('converter'), notFound: renderPage('notFound') };
    } finally {
      await server.close();
    }
  }
}

/** index.html with a page's markup in its root, marked with the page's name for main.tsx. */
function fillRoot(html: string, name: PrerenderedPage, markup: string): string {
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error(`index.html has no ${root} to render into`);
  return html.replace(root, `<div id="root" data-page="${name}">${markup}</div>`);
}

/**
 * The page's one stylesheet (3–4 KB gzipped) goes into each page's HTML: on a slow mobile link a separate file cost the
 * first paint a round trip (Lighthouse's simulated slow 4G). Taken out of the bundle once, inlined into every page.
 */
function takeStylesheet(html: string, bundle: NonNullable<IndexHtmlTransformContext['bundle']>): { inline: (page: string) => string } {
  const link = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g;
  const sheets = new Map<string, string>();
  for (const [, fileName] of html.matchAll(link)) {
    const asset = bundle[fileName!];
    if (asset?.type !== 'asset') continue;
    sheets.set(fileName!, String(asset.source));
    delete bundle[fileName!];
  }
  // With cssCodeSplit off there is one stylesheet; another would be a file lazily loaded modules still fetch.
  const others = Object.keys(bundle).filter((fileName) => fileName.endsWith('.css'));
  if (others.length > 0) throw new Error(`One stylesheet, inlined into index.html, is expected; the build also has ${others.join(', ')}`);
  return { inline: (page) => page.replace(link, (tag, fileName: string) => (sheets.has(fileName) ? `<style>${sheets.get(fileName)}</style>` : tag)) };
}

/**
 * The headers a host should send (src/app/hostHeaders.ts), with connect-src open to the configured integrations'
 * origins only: written into the build as `_headers`, and sent by `vite preview` (what `npm start` and the tests
 * serve) so the app is tested under them. A malformed or half-set integration (VITE_SUPABASE_URL without its key,
 * say) fails the build here, not the page.
 */
function hostHeaders(): Plugin {
  let rules: HeaderRule[] = [];
  return {
    name: 'pixel:host-headers',
    configResolved(resolved) {
      rules = hostHeaderRules(integrationOrigins(integrationConfig(resolved.env)));
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(rules) });
    },
    // `npm run dev` is isolated too, so the same AVIF encoder loads there; the rest would get in the dev server's way.
    configureServer(server) {
      server.middlewares.use((_request, response, next) => {
        for (const [name, value] of Object.entries(CROSS_ORIGIN_ISOLATION)) response.setHeader(name, value);
        next();
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use((request, response, next) => {
        const pathname = new URL(request.url ?? '/', 'http://host').pathname;
        for (const [name, value] of Object.entries(headersFor(pathname, rules))) response.setHeader(name, value);
        next();
      });
    },
  };
}

/**
 * Asks V8 to compile every function of each of the page's chunks while it streams the file in, on a background
 * thread, rather than each one on the UI thread the first time it runs (Chrome's explicit compile hints; other
 * browsers ignore the comment). Each chunk is loaded when the page is about to run most of it: the app (src/main.tsx
 * with React and the router) to hydrate the page, the others on first use (the worker pools, the header parser, the
 * toasts, the virtual list and grid). The workers are bundled apart and compile on their own threads anyway. Added
 * once the chunks are final: the minifier would drop it.
 */
function compileEagerly(): Plugin {
  const HINT = '//# allFunctionsCalledOnLoad\n';
  return {
    name: 'pixel:compile-eagerly',
    apply: 'build',
    // After Vite's own post-processing, which puts its preload helper at the top of a chunk.
    generateBundle: { order: 'post', handler: addHints },
  };

  function addHints(_options: unknown, bundle: Rollup.OutputBundle): void {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      chunk.code = HINT + chunk.code;
      // The generated code moved down a line. The source map (with --sourcemap) is already an asset of its own by now.
      const map = bundle[`${chunk.fileName}.map`];
      if (map?.type === 'asset' && typeof map.source === 'string') {
        const parsed = JSON.parse(map.source) as { mappings: string };
        parsed.mappings = `;${parsed.mappings}`;
        map.source = JSON.stringify(parsed);
      }
    }
  }
}

/**
 * libheif-js's Emscripten glue reads Node's `fs`, `path` and `crypto` in branches that run only under Node (it is
 * built for both). In a browser those branches are dead; the requires are taken out of the glue, so the browser build
 * neither bundles a stub for them nor warns that it did.
 */
function dropNodeBranchRequires(): Plugin {
  const GLUE = /node_modules\/libheif-js\/libheif-wasm\/libheif\.js$/;
  return {
    name: 'pixel:drop-node-branch-requires',
    transform(code, id) {
      if (!GLUE.test(id)) return null;
      const requires = /\brequire\("(fs|path|crypto)"\)/g;
      if (!requires.test(code)) throw new Error(`${id}: none of Node's requires this build takes out; check the plugin against the new glue`);
      return { code: code.replace(requires, 'undefined'), map: null };
    },
  };
}

/** Each format the app takes, by MIME type, with the file extensions it goes by (the format registry's). */
const OPENABLE = Object.fromEntries(
  SOURCE_FORMAT_IDS.map((id) => {
    const { mimeType, extension, extensionAliases } = sourceFormatInfo(id);
    return [mimeType, [extension, ...extensionAliases].map((alias) => `.${alias}`)];
  }),
);

export default defineConfig({
  plugins: [
    dropNodeBranchRequires(),
    hostHeaders(),
    react(),
    themeColour(),
    prerenderPages(),
    compileEagerly(),
    VitePWA({
      // workers/sw.ts: the precache below, the share target, and updates that wait for the page (no takeover mid-batch).
      strategies: 'injectManifest',
      srcDir: 'workers',
      filename: 'sw.ts',
      // Registered by src/app/serviceWorker.ts once the page is idle after load: the offline copy is 6.6 MB of codecs.
      injectRegister: null,
      // The PNG icons (64, 192, 512, a maskable 512 on the theme colour, Apple's 180) and the favicon links are made
      // from public/favicon.svg at build time.
      pwaAssets: {
        image: 'public/favicon.svg',
        preset: {
          ...minimal2023Preset,
          maskable: { ...minimal2023Preset.maskable, resizeOptions: { background: THEME_COLOUR } },
          apple: { ...minimal2023Preset.apple, resizeOptions: { background: THEME_COLOUR } },
        },
        includeHtmlHeadLinks: true,
        injectThemeColor: false,
      },
      manifest: {
        id: '/',
        name: 'Pixel Converter',
        short_name: 'Pixel Converter',
        description: 'Convert images to JPG, PNG, WebP, AVIF and JPEG XL in your browser. Nothing is uploaded.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: THEME_COLOUR,
        background_color: '#f6f7fb',
        categories: ['photo', 'utilities', 'productivity'],
        screenshots: [
          { src: '/screenshots/phone.png', sizes: '780x1688', type: 'image/png', form_factor: 'narrow', label: 'Photos converted to WebP on a phone' },
          { src: '/screenshots/desktop.png', sizes: '1280x800', type: 'image/png', form_factor: 'wide', label: 'Files, settings and the queue side by side' },
        ],
        // Images from another app's Share sheet: workers/sw.ts receives them (SHARE_TARGET in core/shareTarget.ts).
        share_target: {
          action: SHARE_TARGET.action,
          method: 'POST',
          enctype: 'multipart/form-data',
          params: { files: [{ name: SHARE_TARGET.field, accept: [...Object.keys(OPENABLE), ...Object.values(OPENABLE).flat()] }] },
        },
        // "Open with" from the file manager: the page takes them from window.launchQueue, into the open window.
        file_handlers: [{ action: '/', accept: OPENABLE }],
        launch_handler: { client_mode: 'focus-existing' },
      },
      injectManifest: {
        // The shell and every codec the app can load, so conversions work offline after the first visit.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,wasm}'],
        globIgnores: [...UNLOADED_CODEC_FILES, 'screenshots/**'],
        maximumFileSizeToCacheInBytes: 6 * 1024 * 1024,
        // A classic script, as it is registered (src/app/serviceWorker.ts), built whole with nothing to import.
        rollupFormat: 'iife',
      },
    }),
  ],
  worker: { format: 'es', plugins: () => [dropNodeBranchRequires()] },
  // The codecs load their .wasm by URL relative to their own module; pre-bundling would break that.
  optimizeDeps: { exclude: CODEC_PACKAGES },
  build: {
    target: 'es2022',
    // The manifest tells the bench which modules run before the page is alive (tests/bench/coldstart.ts).
    manifest: true,
    // One stylesheet for the whole app, index.html's (inlined there): no lazily loaded module asks for CSS.
    cssCodeSplit: false,
    // Rolldown's plugin-timing check counts the workers' own builds, which Vite runs inside one plugin's transform
    // (vite:worker-import-meta-url: the four workers, bundled), as one slow plugin: the time is the build's, and the
    // check printed it as a warning on every build here.
    rolldownOptions: { checks: { pluginTimings: false } },
  },
  preview: { port: 4173, strictPort: true },
});
