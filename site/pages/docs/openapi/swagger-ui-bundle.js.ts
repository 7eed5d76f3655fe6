/** Swagger UI's browser bundle, from the swagger-ui-dist package (site/lib/openapi-viewer.ts). */
import { swaggerUiFile } from '../../../lib/openapi-viewer.ts';

export function GET(): Response {
  return new Response(new Uint8Array(swaggerUiFile('swagger-ui-bundle.js')), { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
}
