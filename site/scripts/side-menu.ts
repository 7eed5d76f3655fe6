/**
 * The side menu of a long page (`details[data-side-menu]`, site/layouts/Page.astro): open beside the content on a
 * wide screen, closed above it on a phone (opened by its summary, closed again when a link in it is followed).
 * Without script it is a closed disclosure at the top of the page.
 */
export const WIDE = '(min-width: 64rem)';

export function initSideMenu(): void {
  const menu = document.querySelector<HTMLDetailsElement>('details[data-side-menu]');
  if (!menu) return;
  const wide = window.matchMedia(WIDE);
  const apply = () => {
    menu.open = wide.matches;
  };
  apply();
  wide.addEventListener('change', apply);
  menu.addEventListener('click', (e) => {
    if (!wide.matches && e.target instanceof Element && e.target.closest('a')) menu.open = false;
  });
}
