import { type ComponentType, createElement, lazy } from 'react';

/** A screen's code chunk: imported at most once, and known synchronously once it has arrived. */
export interface ScreenModule<P extends object> {
  /** Starts the import (once) and resolves with the module. */
  load(): Promise<{ default: ComponentType<P> }>;
  /** The module when it has arrived, else undefined. */
  loaded(): { default: ComponentType<P> } | undefined;
}

export function screenModule<P extends object>(
  importer: () => Promise<{ default: ComponentType<P> }>,
): ScreenModule<P> {
  let promise: Promise<{ default: ComponentType<P> }> | undefined;
  let module: { default: ComponentType<P> } | undefined;
  return {
    load: () => {
      promise ??= importer().then((m) => {
        module = m;
        return m;
      });
      return promise;
    },
    loaded: () => module,
  };
}

/**
 * React.lazy for a screen whose chunk may already be there (boot.ts starts the one in the address
 * bar at once): rendered directly when it has arrived, through React.lazy (and the nearest
 * Suspense fallback) only while it has not. React.lazy alone suspends on its first render even
 * for a loaded module, and once a Suspense fallback has shown, React holds the content back for
 * up to 300 ms (its fallback throttling): that was most of the gap between the grid's data
 * arriving and its first rows showing.
 */
export function lazyScreen<P extends object>(screen: ScreenModule<P>): ComponentType<P> {
  const Lazy = lazy(screen.load);
  // biome-ignore lint/correctness/noComponentHookFactories: a component factory like React.lazy, called once per screen at module level (App.tsx)
  return function Screen(props: P) {
    const module = screen.loaded();
    return module ? createElement(module.default, props) : createElement(Lazy as ComponentType<P>, props);
  };
}
