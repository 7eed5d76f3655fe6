// @ts-check
/**
 * The documentation site (Astro, static output): pages in site/pages/, assets in public/. The static build
 * (`build-scripts/site.ts`) sets SNAPCAT_BUILD (the build folder the pages read their data from) and
 * SNAPCAT_SITE_OUT (a scratch folder it then moves into <build>/site/). Pages live under /docs/ and
 * /browse/ (plus the home page), one folder with an index.html each, so no name meets an API path.
 * Nothing here fetches from the network: no remote fonts or images, telemetry off (ASTRO_TELEMETRY_DISABLED).
 */
import { defineConfig } from 'astro/config';

// Astro reads this when it records (after loading the config), so `npx astro build` is covered too.
process.env.ASTRO_TELEMETRY_DISABLED = '1';

export default defineConfig({
  output: 'static',
  srcDir: './site',
  publicDir: './public',
  outDir: process.env.SNAPCAT_SITE_OUT ?? './.astro-out',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  devToolbar: { enabled: false },
  prefetch: false,
  compressHTML: true,
  // Never inline scripts or assets: the endpoint's Content-Security-Policy allows scripts from this origin only.
  vite: { build: { assetsInlineLimit: 0 } },
});
