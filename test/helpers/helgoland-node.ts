/**
 * Lets Node's ES module loader link `@helgoland/core` the way the Angular CLI's bundler does. The library
 * writes `import moment, { duration } from 'moment'`, and moment is a CommonJS (UMD) file whose exports Node
 * cannot see statically, so Node refuses the named import where a bundler resolves it at run time. For that
 * one importer, `moment` resolves to a small ES module that re-exports the very same CommonJS moment (one
 * instance, shared with moment-timezone's `require('moment')`) as its default export and each of its
 * properties by name. Nothing of moment's code is replaced.
 * Import this module before `@helgoland/core` (the test runner evaluates imports in order).
 */
import { createRequire, registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const COMMONJS = ['moment'];
const MARK = '?esm-of-commonjs';
const require = createRequire(import.meta.url);

registerHooks({
  resolve(specifier, context, next) {
    if (COMMONJS.includes(specifier) && context.parentURL?.includes('/node_modules/@helgoland/core/')) {
      return { url: pathToFileURL(require.resolve(specifier)).href + MARK, format: 'module', shortCircuit: true };
    }
    return next(specifier, context);
  },
  load(url, context, next) {
    if (!url.endsWith(MARK)) return next(url, context);
    const file = url.slice(0, -MARK.length);
    const names = Object.keys(require(new URL(file).pathname) as object).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
    const source = [`import m from ${JSON.stringify(file)};`, 'export default m;', ...names.map((n) => `export const ${n} = m.${n};`)].join('\n');
    return { format: 'module', source, shortCircuit: true };
  },
});
