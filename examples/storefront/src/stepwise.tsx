import { useEffect, useState, type ReactNode } from 'react';

/**
 * A long page's first render in steps, each in a task of its own (README "Throttled budgets"): on a phone-speed CPU
 * a whole listing rendered at once is one task of 200-300 ms, blocking input. Once `ready`, step 0 renders; then a
 * timer per step until `steps` have been shown; from then on (and at once when `instant`: a page restored by back or
 * forward, whose scroll position needs all of it) the answer is Infinity, for the component's lifetime, so later
 * updates (a filter, "more") render whole.
 */
export function useStepwise(ready: boolean, steps: number, instant: boolean): number {
  const [step, setStep] = useState(0);
  const [finished, setFinished] = useState(false);
  useEffect(() => {
    if (finished || !ready) return;
    if (instant || step + 1 >= steps) {
      setFinished(true);
      return;
    }
    const timer = setTimeout(() => setStep(step + 1));
    return () => clearTimeout(timer);
  }, [ready, step, steps, finished, instant]);
  return finished || (ready && instant) ? Infinity : step;
}

/**
 * Its children one task after their parent's render while the app renders hidden beside a prerendered page
 * (src/main.tsx), else at once: the page's main part, the header, its search box and menus and the cart drawer each
 * render in a task of their own, not all in the first render's. Until then a `data-deferred` placeholder, and the
 * prerendered page is not replaced before they show (no header growing under the shopper's eyes).
 */
export function Later({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(() => !document.getElementById('root')?.hidden);
  useEffect(() => {
    if (shown) return;
    const timer = setTimeout(() => setShown(true));
    return () => clearTimeout(timer);
  }, [shown]);
  return shown ? <>{children}</> : <span data-deferred="" hidden />;
}
