import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyScreen, screenModule } from '../src/lib/lazy-screen';

const Greeting = ({ name }: { name: string }) => createElement('p', null, `Hello ${name}`);

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
});
