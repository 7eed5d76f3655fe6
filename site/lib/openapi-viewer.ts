/**
 * The OpenAPI viewer's files (/docs/openapi/): Swagger UI's prebuilt browser bundle and stylesheet from the
 * `swagger-ui-dist` package, written into the tree by the site build, so the viewer needs nothing from another
 * host. Only the viewer's page loads them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Where the viewer's files are served from. */
export const VIEWER_DIR = '/docs/openapi';

/** A file of the swagger-ui-dist package, as bytes. */
export function swaggerUiFile(name: 'swagger-ui-bundle.js' | 'swagger-ui.css'): Buffer {
  return readFileSync(require.resolve(`swagger-ui-dist/${name}`));
}

export const SWAGGER_UI_VERSION: string = (require('swagger-ui-dist/package.json') as { version: string }).version;
