/** Swagger UI's stylesheet, from the swagger-ui-dist package (site/lib/openapi-viewer.ts). */
import { swaggerUiFile } from '../../../lib/openapi-viewer.ts';

export function GET(): Response {
  return new Response(new Uint8Array(swaggerUiFile('swagger-ui.css')), { headers: { 'Content-Type': 'text/css; charset=utf-8' } });
}
