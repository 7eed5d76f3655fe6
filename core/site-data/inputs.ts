/**
 * The site's inputs: what its pages read of the build folder, recorded while Astro builds (site/lib/data.ts) into
 * a set the site's build puts on globalThis under this key (build-scripts/lib/site-inputs.ts), so a later build
 * can tell whether any of them changed. A symbol of the global registry: the pages run from Astro's bundle, a
 * copy of these modules, and meet the build's set through it.
 */
export const SITE_INPUTS: unique symbol = Symbol.for('snapcat.site.inputs');
