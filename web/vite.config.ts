import { defineConfig } from "vite";

// The gateway serves dist/ at "/", on the same origin as /api; `npm run dev -w web` proxies /api to
// a stack started with `npm start` so the same relative URLs work during development.
export default defineConfig({
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Every supported browser has modulepreload; the polyfill would only add code.
    modulePreload: { polyfill: false },
    target: "es2022",
  },
  server: { proxy: { "/api": "http://127.0.0.1:8080" } },
});
