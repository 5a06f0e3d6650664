/**
 * Where code may reach, by where it runs (docs/architecture.md): the page (src/), the workers (workers/, and the codec
 * folders in wasm/ they load), and core/, which both import. Run by `npm run lint`.
 */
const CODEC_HEADER = '^wasm/[^/]+/header\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, lazy ones included: a module is read after what it needs.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'page-not-into-workers',
      severity: 'error',
      comment: 'The page reaches workers only through src/conversion/bridge.ts, by URL, never by import.',
      from: { path: '^src/' },
      to: { path: '^workers/' },
    },
    {
      name: 'page-not-into-codecs',
      severity: 'error',
      comment: 'The page may read a codec folder’s header reader (src/conversion/probe.ts), nothing else.',
      from: { path: '^src/' },
      to: { path: '^wasm/', pathNot: CODEC_HEADER },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'core/ is imported by both threads and the codecs: it imports none of them, nor React. The formats’ facts are here (core/formats/); wasm/ adds their codecs.',
      from: { path: '^core/' },
      to: { path: ['^src/', '^workers/', '^wasm/', '^node_modules/(react|react-dom)/', '^node_modules/@jsquash/'] },
    },
    {
      name: 'workers-not-into-page',
      severity: 'error',
      comment: 'Worker code never imports the page or React.',
      from: { path: '^(workers|wasm)/' },
      to: { path: ['^src/', '^node_modules/(react|react-dom|react-[^/]+)/'] },
    },
    {
      name: 'codecs-stand-alone',
      severity: 'error',
      comment: 'A codec folder imports only core/, its own package and wasm/ helpers: it can be read, tested and reused without the pipeline that runs it.',
      from: { path: '^wasm/' },
      to: { path: ['^workers/', '^src/'] },
    },
    {
      name: 'codecs-only-in-wasm',
      severity: 'error',
      comment: 'Only wasm/ imports @jsquash: its loaders decide when and from where a .wasm is compiled.',
      from: { pathNot: '^wasm/' },
      to: { path: '^node_modules/@jsquash/' },
    },
    {
      name: 'backend-client-in-one-place',
      severity: 'error',
      comment: 'The backend client is loaded only by backend.ts, and only when configured.',
      from: { pathNot: '^src/features/integrations/backend\\.ts$' },
      to: { path: '^node_modules/@supabase/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'A module nothing imports is dead: entry points, the modules of the codec folders that the build finds by glob, and wasm/codec.ts (interfaces, imported only as types, which the parser drops) aside.',
      from: {
        orphan: true,
        path: '^(src|core|workers|wasm)/',
        pathNot: ['\\.d\\.ts$', '^src/(main|boot|entry-server)\\.tsx?$', '^workers/[^/]+\\.worker\\.ts$', '^workers/sw\\.ts$', '^wasm/[^/]+/(index|header)\\.ts$', '^wasm/packages\\.ts$', '^wasm/codec\\.ts$'],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // TypeScript 7 is not a parser dependency-cruiser can use yet; Babel's TypeScript preset reads the sources.
    babelConfig: { fileName: 'babel.config.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
