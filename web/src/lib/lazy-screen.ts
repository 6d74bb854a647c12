import { type ComponentType, createElement, lazy } from 'react';

/** A screen's code chunk: imported at most once, and known synchronously once it has arrived. */
export interface ScreenModule<P extends object> {
  /** Starts the import (once) and resolves with the module. */
  load(): Promise<{ default: ComponentType<P> }>;
  /** The module when it has arrived, else undefined. */
  loaded(): { default: ComponentType<P> } | undefined;
}

/** The waits before the second and third try of a chunk that did not arrive (a dropped connection, a busy server). */
export const CHUNK_RETRY_MS = [400, 1_600];

/**
 * A chunk that fails to arrive is tried again after each of `retryMs`; one that fails every try
 * rejects, and the next `load` starts over (the screen's error boundary offers another try), so
 * one lost request does not leave a screen blank until the page is reloaded.
 */
export function screenModule<P extends object>(
  importer: () => Promise<{ default: ComponentType<P> }>,
  retryMs: readonly number[] = CHUNK_RETRY_MS,
): ScreenModule<P> {
  let promise: Promise<{ default: ComponentType<P> }> | undefined;
  let module: { default: ComponentType<P> } | undefined;
  const attempt = async (tries: number): Promise<{ default: ComponentType<P> }> => {
    try {
      return await importer();
    } catch (err) {
      const wait = retryMs[tries];
      if (wait === undefined) throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
      return attempt(tries + 1);
    }
  };
  return {
    load: () => {
      promise ??= attempt(0).then(
        (m) => {
          module = m;
          return m;
        },
        (err: unknown) => {
          promise = undefined;
          throw err;
        },
      );
      return promise;
    },
    loaded: () => module,
  };
}

let retryGeneration = 0;

/**
 * A screen that failed to load may try again on its next render (ScreenBoundary calls it when the
 * address changes after a failure: "another address tries again").
 */
export function allowScreenRetry(): void {
  retryGeneration++;
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
  // React.lazy keeps a rejection for good: after `allowScreenRetry` the next render takes a fresh
  // one. Not at once: React renders a failed tree again before showing the error boundary, and a
  // fresh load there would suspend instead of failing, again after every failure.
  let made = retryGeneration;
  let Lazy = lazy(screen.load);
  // biome-ignore lint/correctness/noComponentHookFactories: a component factory like React.lazy, called once per screen at module level (App.tsx)
  return function Screen(props: P) {
    const module = screen.loaded();
    if (module) return createElement(module.default, props);
    if (made !== retryGeneration) {
      made = retryGeneration;
      Lazy = lazy(screen.load);
    }
    return createElement(Lazy as ComponentType<P>, props);
  };
}
