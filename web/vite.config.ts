import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `name.br` and `name.gz` beside every text file of the build, so the server
 * (@fastify/static `preCompressed`) sends them as they are instead of compressing per request.
 * Below ~1 KB the headers cost about what compression saves.
 */
function precompress({ minBytes = 1024 } = {}): Plugin {
  const compressible = /\.(html|js|mjs|css|svg|json|webmanifest|txt|xml)$/i;
  return {
    name: 'lms:precompress',
    apply: 'build',
    // After writing, so files Vite copies from public/ are compressed too.
    async writeBundle({ dir }) {
      if (!dir) return;
      const files = (await fs.readdir(dir, { recursive: true })).filter((file) => compressible.test(file));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(dir, file);
          const bytes = await fs.readFile(full);
          if (bytes.length < minBytes) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}

// `npm run dev`: the Vite dev server proxies the API, media and the payment sandbox to the server on :3000.
export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    // dist/.vite/manifest.json maps each page's source to its chunks: the bench weighs every route with it.
    manifest: true,
    // Rolldown's [PLUGIN_TIMINGS] table of slow plugins (Tailwind's CSS, our precompression) printed on
    // a newcomer's first `npm start`: nothing there is theirs to act on. Every other warning stays.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk with it. Left to itself the bundler
          // cuts it into several (the store, the toasts, React, the texts), since pages loaded later
          // import parts of it too: every page downloads all of them anyway, and as separate files
          // they compress worse and each costs a request.
          groups: [{ name: 'index', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/media': 'http://127.0.0.1:3000',
      '/sandbox': 'http://127.0.0.1:3000',
    },
  },
});
