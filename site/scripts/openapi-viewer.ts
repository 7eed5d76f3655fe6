/**
 * Starts Swagger UI (its bundle, loaded before this module by the page, defines `window.SwaggerUIBundle`) on the
 * tree's OpenAPI document. Nothing leaves the host: the document is `/openapi.json`, the validator badge is off
 * (`validatorUrl: null`), "Try it out" sends to this origin (the document's server is `/`).
 */
interface SwaggerUIBundleFn {
  (opts: Record<string, unknown>): unknown;
  presets: { apis: unknown };
}

export function initViewer(): void {
  const root = document.getElementById('swagger-ui');
  const status = document.getElementById('openapi-status');
  const ui = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundleFn }).SwaggerUIBundle;
  if (!root || !status) return;
  if (!ui) {
    status.textContent = 'The viewer did not load; the document is still at /openapi.json.';
    return;
  }
  ui({
    url: root.dataset['url'],
    domNode: root,
    // off: its links would be hash routes (#/tag/operation), not ids of the page, which the site's link check holds every anchor to
    deepLinking: false,
    validatorUrl: null,
    presets: [ui.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    filter: true,
    supportedSubmitMethods: ['get', 'head', 'post'],
    onComplete: () => {
      status.textContent = '';
    },
  });
}

initViewer();
