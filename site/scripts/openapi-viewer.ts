/**
 * Starts Swagger UI (its bundle, loaded before this module by the page, defines `window.SwaggerUIBundle`) on the
 * tree's OpenAPI document. Nothing leaves the host: the document is `/openapi.json`, the validator badge is off
 * (`validatorUrl: null`), "Try it out" sends to this origin (the document's server is `/`).
 *
 * Then keeps Swagger UI's markup accessible as it draws (a MutationObserver: it draws operations as they near the
 * viewport and redraws on every click): controls without a name get one, interactive elements nested in another
 * lose their own focus and role. Its dark theme (`html.dark-mode`, part of its stylesheet) follows the system's
 * colour scheme; contrast fixes are in the page's stylesheet (site/pages/docs/openapi/index.astro).
 */
interface SwaggerUIBundleFn {
  (opts: Record<string, unknown>): unknown;
  presets: { apis: unknown };
}

/** Names and de-nests what Swagger UI drew under `root`; idempotent, cheap enough to run on every mutation batch. */
export function mendMarkup(root: HTMLElement): void {
  // the servers <select> sits in a <label> with no text: name it by the "Servers" title beside it
  for (const select of Array.from(root.querySelectorAll<HTMLSelectElement>('select'))) {
    // a <label> around the select: its text less the options' is its name
    const labelText = Array.from(select.labels ?? []).map((l) => (l.textContent ?? '').replace(select.textContent ?? '', '').trim()).join('');
    if (labelText) continue;
    if (select.hasAttribute('aria-label') || select.hasAttribute('aria-labelledby')) continue;
    const title = select.closest('.servers')?.parentElement?.querySelector('.servers-title')?.textContent?.trim();
    const param = select.closest('tr[data-param-name]')?.getAttribute('data-param-name');
    select.setAttribute('aria-label', title === 'Servers' || select.id === 'servers' ? 'Server' : param ? `Value of ${param}` : 'Value');
  }
  // buttons and inputs without text, title or label (icon buttons): name them by their title or class
  for (const el of Array.from(root.querySelectorAll<HTMLElement>('button, input:not([type=hidden]), textarea'))) {
    if (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.textContent?.trim() || el.getAttribute('title')) continue;
    if ((el as HTMLInputElement).labels?.length) continue;
    const param = el.closest('tr[data-param-name]')?.getAttribute('data-param-name');
    const what = el.getAttribute('placeholder') || (param ? `Value of ${param}` : el.className.replace(/[-_]/g, ' ').trim() || el.tagName.toLowerCase());
    el.setAttribute('aria-label', what);
  }
  // an interactive element inside a button or link is unreachable to assistive technology: take it out of the tab order and the tree
  for (const inner of Array.from(root.querySelectorAll<HTMLElement>('button a[href], button button, a[href] button, a[href] a[href], button input, button select'))) {
    if (inner.getAttribute('aria-hidden') === 'true') continue;
    inner.setAttribute('tabindex', '-1');
    inner.setAttribute('aria-hidden', 'true');
  }
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * The document with every parameter `$ref` (`#/components/parameters/...`, path- and operation-level) replaced by the
 * parameter itself: Swagger UI 5.35 leaves path-level parameter refs unresolved when an operation opens (its rows
 * read `any ()` with no name), so the viewer gets them inline. The document served at /openapi.json is unchanged.
 */
export function inlineParameterRefs(doc: { [k: string]: Json }): { [k: string]: Json } {
  const components = doc['components'] as { [k: string]: Json } | undefined;
  const params = (components?.['parameters'] ?? {}) as { [k: string]: Json };
  const resolve = (p: Json): Json => {
    if (p && typeof p === 'object' && !Array.isArray(p) && typeof p['$ref'] === 'string') {
      const m = /^#\/components\/parameters\/(.+)$/.exec(p['$ref']);
      const target = m ? params[decodeURIComponent(m[1]!).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
      if (target !== undefined) return target;
    }
    return p;
  };
  const paths = (doc['paths'] ?? {}) as { [k: string]: { [k: string]: Json } };
  for (const item of Object.values(paths)) {
    if (Array.isArray(item['parameters'])) item['parameters'] = item['parameters'].map(resolve);
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && !Array.isArray(op) && Array.isArray(op['parameters'])) op['parameters'] = op['parameters'].map(resolve);
    }
  }
  return doc;
}

/** Swagger UI's own dark theme while the system asks for dark. */
function followColourScheme(): void {
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const apply = (): void => void document.documentElement.classList.toggle('dark-mode', dark.matches);
  apply();
  dark.addEventListener('change', apply);
}

export async function initViewer(): Promise<void> {
  const root = document.getElementById('swagger-ui');
  const status = document.getElementById('openapi-status');
  const ui = (window as unknown as { SwaggerUIBundle?: SwaggerUIBundleFn }).SwaggerUIBundle;
  if (!root || !status) return;
  if (!ui) {
    status.textContent = 'The viewer did not load; the document is still at /openapi.json.';
    return;
  }
  followColourScheme();
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      mendMarkup(root);
    });
  }).observe(root, { childList: true, subtree: true });
  let spec: { [k: string]: Json };
  try {
    const answer = await fetch(root.dataset['url'] ?? '/openapi.json');
    if (!answer.ok) throw new Error(String(answer.status));
    spec = inlineParameterRefs((await answer.json()) as { [k: string]: Json });
  } catch {
    status.textContent = 'The OpenAPI document could not be loaded; it is at /openapi.json.';
    return;
  }
  ui({
    spec,
    domNode: root,
    // off: its links would be hash routes (#/tag/operation), not ids of the page, which the site's link check holds every anchor to
    deepLinking: false,
    validatorUrl: null,
    presets: [ui.presets.apis],
    layout: 'BaseLayout',
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    filter: true,
    // off: its colours for numbers and keys fall below 4.5:1 on its dark code ground; plain text reads the same
    syntaxHighlight: false,
    supportedSubmitMethods: ['get', 'head', 'post'],
    onComplete: () => {
      status.textContent = '';
    },
  });
}

void initViewer();
