import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const jsquash = ['@jsquash/avif', '@jsquash/webp', '@jsquash/jpeg', '@jsquash/png', '@jsquash/resize', '@jsquash/oxipng'];

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  // The codecs load their .wasm by URL relative to their own module; pre-bundling would break that.
  optimizeDeps: { exclude: jsquash },
  build: { target: 'es2022' },
  preview: { port: 4173, strictPort: true },
});
