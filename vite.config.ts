import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // The server reads it to preload each public page's own chunk with the HTML.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      ['/api', '/media', '/robots.txt', '/sitemap.xml'].map((p) => [p, `http://localhost:${process.env.PORT ?? 3000}`]),
    ),
  },
});
