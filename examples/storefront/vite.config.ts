import { defineConfig, type Plugin } from 'vite';

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
  // One stylesheet, in the page's head: a stylesheet arriving with the app's code would restyle the whole prerendered
  // page (a long task at 4× throttling). The modules the entry imports on its way (Preact, the app) are preloaded by
  // links in index.html, not by Vite's helper adding a dozen links from the entry's own task (README "Throttled budgets").
  build: { outDir: 'dist', target: 'es2022', sourcemap: false, cssCodeSplit: false, modulePreload: false },
  plugins: [preloadEntryImports()],
  server: {
    // src/seo.ts builds on the server's src/storefront-demo/seo-data.ts (one JSON-LD for the SPA and the prerender)
    fs: { allow: ['.', '../../src/storefront-demo'] },
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/storefront/': { target: api, changeOrigin: false },
    },
  },
});

/** `<link rel="modulepreload">` in index.html for every chunk the entry imports dynamically, and what those import. */
function preloadEntryImports(): Plugin {
  let base = '/';
  return {
    name: 'preload-entry-imports',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
        const entry = [...chunks.values()].find((c) => c.isEntry);
        const wanted = new Set<string>();
        const add = (file: string) => {
          if (wanted.has(file) || file === entry?.fileName) return;
          wanted.add(file);
          for (const next of chunks.get(file)?.imports ?? []) add(next);
        };
        for (const file of [...(entry?.imports ?? []), ...(entry?.dynamicImports ?? [])]) add(file);
        const links = [...wanted].map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`);
        return html.replace(/\n\s*<\/head>/, () => `\n    ${links.join('\n    ')}\n  </head>`);
      },
    },
  };
}
