import { defineConfig } from 'vite';

// `npm run dev` serves the app on :5173 and proxies the API (API_URL, default http://127.0.0.1:3000), so the
// visitor cookie and the API share one origin exactly as when the API serves the build at /storefront-demo/.
const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base: '/storefront-demo/',
  // written against React's API (types from @types/react), run on Preact's compat layer: a quarter of the bytes
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: {
    alias: {
      'react-dom/client': 'preact/compat/client',
      'react-dom': 'preact/compat',
      react: 'preact/compat',
    },
  },
  build: { outDir: 'dist', target: 'es2022', sourcemap: false },
  server: {
    // src/seo.ts builds on the server's src/storefront-demo/seo-data.ts (one JSON-LD for the SPA and the prerender)
    fs: { allow: ['.', '../../src/storefront-demo'] },
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/storefront/': { target: api, changeOrigin: false },
    },
  },
});
