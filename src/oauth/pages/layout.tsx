import type { Child } from 'hono/jsx';

/**
 * The frame of every authorization page: no scripts, no external assets, one inline style
 * sheet. Built for keyboard use: a skip-free single column, native controls, visible focus.
 */
const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; background: #f3f5f7; color: #1b1f23; line-height: 1.5; }
main { max-width: 30rem; margin: 3rem auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem; border: 1px solid #6a737d; border-radius: 4px; }
fieldset { border: 1px solid #d1d5da; border-radius: 4px; margin: 1rem 0; padding: .5rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.scope { display: flex; gap: .6rem; align-items: flex-start; margin: .6rem 0; font-weight: 400; }
.scope input { margin-top: .3rem; width: 1.1rem; height: 1.1rem; }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
button { font-size: 1rem; padding: .6rem 1.2rem; border-radius: 4px; border: 1px solid #1b1f23; background: #fff; color: #1b1f23; cursor: pointer; }
button.primary { background: #0b5cad; border-color: #0b5cad; color: #fff; }
button.link { border: none; padding: 0; color: #0b5cad; text-decoration: underline; background: none; }
:focus-visible { outline: 3px solid #f9a825; outline-offset: 2px; }
.note { color: #444d56; font-size: .95rem; }
.warning { background: #fff8e1; border-left: 4px solid #f9a825; padding: .5rem .75rem; }
.error { background: #fdecea; border-left: 4px solid #c62828; padding: .5rem .75rem; }
code { background: #f3f5f7; padding: 0 .2rem; border-radius: 3px; }
`;

export function Layout(props: { title: string; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>{props.children}</main>
      </body>
    </html>
  );
}
