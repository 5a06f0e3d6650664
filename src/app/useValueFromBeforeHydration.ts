import { useLayoutEffect, type RefObject } from 'react';

/**
 * A control the visitor changed before React took the page over (typed into, filled by the browser's autofill, ticked
 * while the script loaded) shows their value while React's state still holds the prerendered one: hydration keeps
 * what the element shows and fires no change event. When the control is hydrated, what it shows is taken into the
 * state, so the two agree from the first frame the page responds. Where React rendered the element itself, it
 * already shows the state and nothing happens.
 */
export function useValueFromBeforeHydration<E extends Element, V>(element: RefObject<E | null>, shown: (element: E) => V, state: V, take: (value: V) => void): void {
  useLayoutEffect(() => {
    if (!element.current) return;
    const value = shown(element.current);
    if (!Object.is(value, state)) take(value);
    // Once, when hydrated: from then on React's own change events keep the two in step.
  }, []);
}
