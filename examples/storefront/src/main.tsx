import { startFirstListing } from './listing';
import './styles.css';

// Ask for the first catalogue page now, while the app's code is still on its way (src/listing.ts).
startFirstListing(import.meta.env.BASE_URL.replace(/\/$/, ''));

const [{ StrictMode, createElement }, { createRoot }, { App }] = await Promise.all([import('react'), import('react-dom/client'), import('./App')]);
const root = document.getElementById('root')!;
// A product or listing page comes prerendered by the server (for crawlers and the first paint). The app does not
// hydrate it (its markup depends on what only the browser knows: cart, wishlist, language); it renders beside it,
// hidden, and takes its place once its own page is ready (README "Prerendering").
const prerendered = root.querySelector(':scope > .prerendered');
if (prerendered) {
  root.before(prerendered);
  root.hidden = true;
  const swap = () => {
    if (!prerendered.isConnected) return;
    prerendered.remove();
    root.hidden = false;
    ready.disconnect();
    clearTimeout(late);
  };
  const ready = new MutationObserver(() => {
    const main = root.querySelector('#main');
    // in a task of its own: the page's first layout is not added to the render's long task (total blocking time)
    if (main?.querySelector('h1') && !main.querySelector('[aria-busy="true"], .loading')) setTimeout(swap);
  });
  ready.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
  const late = setTimeout(swap, 5000);
}
// the first render in a task of its own, apart from the evaluation of the app's modules (two shorter long tasks)
await new Promise((resolve) => setTimeout(resolve));
createRoot(root).render(createElement(StrictMode, null, createElement(App)));
