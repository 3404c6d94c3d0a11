import { startFirstListing } from './listing';
import './styles.css';

// Ask for the first catalogue page now, while the app's code is still on its way (src/listing.ts).
startFirstListing(import.meta.env.BASE_URL.replace(/\/$/, ''));

const [{ StrictMode, createElement }, { createRoot }, { App }] = await Promise.all([import('react'), import('react-dom/client'), import('./App')]);
const root = document.getElementById('root')!;
// a product or listing page comes prerendered by the server (for crawlers): the app replaces it rather than hydrating
// it, since the app's markup depends on what only the browser knows (cart, wishlist, language; README "Prerendering")
root.replaceChildren();
createRoot(root).render(createElement(StrictMode, null, createElement(App)));
