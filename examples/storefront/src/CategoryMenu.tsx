import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { loadCategories, type Category } from './categories';
import { useShop } from './store';
import { categoryHref } from './urls';
import './catalogue.css';

/**
 * The category menu: on a desktop a row under the header, on a phone a drawer opened by the "Categories" button.
 * Its entries are the categories facet of the whole catalogue (`categories.ts`: the storefront API has no category
 * tree), the most stocked first.
 */
export function CategoryMenu() {
  const { t, revision } = useShop();
  const [location] = useLocation();
  const [list, setList] = useState<Category[]>([]);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    loadCategories().then((l) => live && setList(l), () => undefined);
    return () => {
      live = false;
    };
  }, [revision]);
  useEffect(() => setOpen(false), [location]);
  useEffect(() => {
    if (!open) return;
    const close = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    addEventListener('keydown', close);
    return () => removeEventListener('keydown', close);
  }, [open]);
  if (list.length === 0) return null;
  return (
    <>
      <button type="button" className="menu-button" aria-expanded={open} aria-controls="category-menu" onClick={() => setOpen(true)}>
        {t('categories')}
      </button>
      <nav id="category-menu" className={open ? 'category-menu open' : 'category-menu'} aria-label={t('categoryMenu')}>
        <div className="category-menu-head">
          <strong>{t('categories')}</strong>
          <button type="button" className="link" onClick={() => setOpen(false)}>
            {t('closeCategories')}
          </button>
        </div>
        <ul>
          <li>
            <Link href="/wines" aria-current={location === '/wines' ? 'page' : undefined}>
              {t('allWines')}
            </Link>
          </li>
          {list.map((c) => {
            const href = categoryHref(c);
            return (
              <li key={c.id}>
                <Link href={href} aria-current={location === href ? 'page' : undefined}>
                  {c.name} <span className="count">{c.count}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}
