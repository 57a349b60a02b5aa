import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev`: the Vite dev server proxies the API and media to the server on :3000.
export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
});
