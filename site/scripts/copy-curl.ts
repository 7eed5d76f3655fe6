/**
 * The docs pages' `curl` lines (`[data-curl]`, site/components/CurlLine.astro): the placeholder origin the build
 * wrote (`[data-origin]`) becomes the page's own origin, and each line's button copies it.
 *
 * Copying never breaks the page: the Clipboard API is tried first; where it is missing or refused (no permission,
 * a page served over plain http from another host, an old browser) the line is selected and `execCommand('copy')`
 * tried; if that fails too, the line stays selected and the status says to press Ctrl+C (⌘C).
 */

/** Replaces the placeholder origin of every curl line with `origin`. */
export function fillOrigins(root: ParentNode, origin: string): void {
  root.querySelectorAll<HTMLElement>('[data-origin]').forEach((el) => {
    el.textContent = origin;
  });
}

function selectText(el: HTMLElement): void {
  const sel = window.getSelection();
  if (!sel) return;
  const range = document.createRange();
  range.selectNodeContents(el);
  sel.removeAllRanges();
  sel.addRange(range);
}

function legacyCopy(el: HTMLElement): boolean {
  selectText(el);
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

/** Copies the text of `el`; says how in `status`. */
export async function copyLine(el: HTMLElement, status: HTMLElement): Promise<void> {
  const text = el.textContent ?? '';
  let done = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      // a permission prompt left unanswered must not leave the button hanging: fall back after a second
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('clipboard timeout')), 1000));
      await Promise.race([navigator.clipboard.writeText(text), timeout]);
      done = true;
    }
  } catch {
    done = false;
  }
  if (!done) done = legacyCopy(el);
  if (!done) selectText(el);
  status.textContent = done ? 'Copied.' : 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
}

export function initCurlLines(): void {
  fillOrigins(document, location.origin);
  document.querySelectorAll<HTMLElement>('.curl').forEach((box) => {
    const code = box.querySelector('[data-curl]');
    const button = box.querySelector('button[data-copy]');
    const status = box.querySelector('[data-copy-status]');
    if (!(code instanceof HTMLElement) || !(button instanceof HTMLButtonElement) || !(status instanceof HTMLElement)) return;
    button.hidden = false;
    button.addEventListener('click', () => {
      status.textContent = '';
      void copyLine(code, status);
    });
  });
}
