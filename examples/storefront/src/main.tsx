import { startFirstListing } from './listing';
import './styles.css';

// Ask for the first catalogue page now, while the app's code is still on its way (src/listing.ts).
startFirstListing(import.meta.env.BASE_URL.replace(/\/$/, ''));

const [{ StrictMode, createElement }, { createRoot }, { App }] = await Promise.all([import('react'), import('react-dom/client'), import('./App')]);
createRoot(document.getElementById('root')!).render(createElement(StrictMode, null, createElement(App)));
