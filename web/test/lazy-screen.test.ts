import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { allowScreenRetry, lazyScreen, screenModule } from '../src/lib/lazy-screen';

const Greeting = ({ name }: { name: string }) => createElement('p', null, `Hello ${name}`);

/** A chunk that fails to arrive until `online` is set, counting its imports. */
function offlineChunk() {
  const chunk = {
    imports: 0,
    online: false,
    importer: async () => {
      chunk.imports++;
      if (!chunk.online) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Greeting };
    },
  };
  return chunk;
}

/** Renders `element` inside a Suspense boundary whose fallback says "loading". */
const render = (element: ReturnType<typeof createElement>) =>
  renderToString(createElement(Suspense, { fallback: createElement('p', null, 'loading') }, element));

describe('screenModule', () => {
  it('imports once, however often it is loaded, and knows the module once it has arrived', async () => {
    let imports = 0;
    const screen = screenModule(async () => {
      imports++;
      return { default: Greeting };
    });
    expect(screen.loaded()).toBeUndefined();
    const [a, b] = await Promise.all([screen.load(), screen.load()]);
    expect(a).toBe(b);
    expect(imports).toBe(1);
    expect(screen.loaded()?.default).toBe(Greeting);
  });

  it('tries a chunk that did not arrive again before giving up', async () => {
    let imports = 0;
    const screen = screenModule(async () => {
      if (++imports < 3) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: Greeting };
    }, [0, 0]);
    expect((await screen.load()).default).toBe(Greeting);
    expect(imports).toBe(3);
  });

  it('rejects after the last try, and the next load starts over instead of keeping the failure', async () => {
    const chunk = offlineChunk();
    const screen = screenModule(chunk.importer, [0]);
    await expect(screen.load()).rejects.toThrow('Failed to fetch');
    expect(chunk.imports).toBe(2);
    expect(screen.loaded()).toBeUndefined();
    chunk.online = true;
    expect((await screen.load()).default).toBe(Greeting);
    expect(chunk.imports).toBe(3);
  });
});

describe('lazyScreen', () => {
  it('renders a screen whose chunk has arrived directly, without the Suspense fallback', async () => {
    const screen = screenModule(async () => ({ default: Greeting }));
    await screen.load();
    const Screen = lazyScreen(screen);
    expect(render(createElement(Screen, { name: 'Ada' }))).toContain('Hello Ada');
  });

  it('shows the fallback while the chunk is still on its way', () => {
    const screen = screenModule(() => new Promise<{ default: typeof Greeting }>(() => {}));
    const Screen = lazyScreen(screen);
    const html = render(createElement(Screen, { name: 'Ada' }));
    expect(html).toContain('loading');
    expect(html).not.toContain('Hello');
  });

  it('loads a failed screen again once retries are allowed, not on the re-render that shows the failure', async () => {
    const chunk = offlineChunk();
    const screen = screenModule(chunk.importer, []);
    const Screen = lazyScreen(screen);
    expect(render(createElement(Screen, { name: 'Ada' }))).toContain('loading');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(chunk.imports).toBe(1);
    chunk.online = true;
    // React renders a failed tree again before its error boundary shows: that must fail, not load again
    render(createElement(Screen, { name: 'Ada' }));
    expect(chunk.imports).toBe(1);
    // the error boundary's other address allows a new try: the screen imports again and shows
    allowScreenRetry();
    expect(render(createElement(Screen, { name: 'Ada' }))).toContain('loading');
    expect(chunk.imports).toBe(2);
    await screen.load();
    expect(render(createElement(Screen, { name: 'Ada' }))).toContain('Hello Ada');
  });
});
