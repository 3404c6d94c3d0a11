import { startFirstListing } from './listing';
import './styles.css';

// Ask for the first catalogue page now, while the app's code is still on its way (src/listing.ts).
startFirstListing(import.meta.env.BASE_URL.replace(/\/$/, ''));

const [{ StrictMode, createElement }, { createRoot }, { App }] = await Promise.all([import('react'), import('react-dom/client'), import('./App')]);
let root = document.getElementById('root')!;
// A product or listing page comes prerendered by the server (for crawlers and the first paint). The app does not
// hydrate it (its markup depends on what only the browser knows: cart, wishlist, language); it renders into a root of
// its own beside it, hidden, and takes its place once its own page is ready (README "Prerendering"). The prerendered
// page stays where it is: moving it would lay it out and paint it again (a long task of its own at 4× throttling).
const prerendered = root.querySelector(':scope > .prerendered') ? root : null;
if (prerendered) {
  root = document.createElement('div');
  root.hidden = true;
  prerendered.removeAttribute('id');
  root.id = 'root';
  prerendered.after(root);
  const swap = () => {
    if (!prerendered.isConnected) return;
    prerendered.remove();
    root.hidden = false;
    ready.disconnect();
    clearTimeout(late);
  };
  const ready = new MutationObserver(() => {
    const main = root.querySelector('#main');
    // ready: a heading and nothing loading (a listing rendering its first cards in steps, `data-stepwise`, is ready once
    // its first step shows: the later ones lay out below it) and no part of the page still to come (`data-deferred`,
    // src/stepwise.tsx); the swap in a task of its own, apart from the render's
    const waiting = main?.querySelector('[aria-busy="true"]:not([data-stepwise]), .loading') ?? root.querySelector('[data-deferred]');
    if (main?.querySelector('h1') && !waiting) setTimeout(swap);
  });
  ready.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  const late = setTimeout(swap, 5000);
}
// the first render in a task of its own, apart from the evaluation of the app's modules (two shorter long tasks)
await new Promise((resolve) => setTimeout(resolve));
createRoot(root).render(createElement(StrictMode, null, createElement(App)));
