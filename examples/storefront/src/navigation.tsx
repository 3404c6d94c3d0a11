// After a navigation: the page title follows the page's h1, focus moves to that h1 (screen readers announce the
// new page, Tab continues from it), and a new page starts at the top (back and forward keep their position).
import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

const SHOP = 'Vinoshop';
let lastWasPop = false;
if (typeof window !== 'undefined') {
  addEventListener('popstate', () => (lastWasPop = true));
  addEventListener('pushState', () => (lastWasPop = false));
}

/** Keeps `document.title` on the main heading's text, for as long as the app runs. */
function followTitle(main: HTMLElement): void {
  const update = () => {
    const text = main.querySelector('h1')?.textContent?.trim();
    const title = text ? `${text} · ${SHOP}` : SHOP;
    if (document.title !== title) document.title = title;
  };
  new MutationObserver(update).observe(main, { childList: true, subtree: true, characterData: true });
  update();
}

export function usePageChange(): void {
  const [path] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const main = document.getElementById('main');
    if (main) followTitle(main);
  }, []);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const main = document.getElementById('main');
    if (!main) return;
    if (!lastWasPop) window.scrollTo(0, 0);
    const focus = () => {
      const heading = main.querySelector('h1');
      if (!heading) return false;
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      return true;
    };
    if (focus()) return;
    // the page's heading appears once its data has loaded
    const observer = new MutationObserver(() => focus() && observer.disconnect());
    observer.observe(main, { childList: true, subtree: true });
    const stop = setTimeout(() => observer.disconnect(), 10_000);
    return () => {
      observer.disconnect();
      clearTimeout(stop);
    };
  }, [path]);
}
