import { html, raw } from 'hono/html';

type Doc = {
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, any>>;
};

/**
 * A self-contained API reference page rendered from the OpenAPI document: no external scripts,
 * fonts or styles, so it works offline and under a strict CSP.
 */
export function renderReference(doc: Doc) {
  const byTag = new Map<string, { method: string; path: string; op: any }[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  const pretty = (value: unknown) => JSON.stringify(value, null, 2);
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${doc.info.title} ${doc.info.version}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:0 auto;padding:1rem 2rem;color:#1a1a1a}
h2{border-bottom:2px solid #0b5cad;padding-bottom:.2rem;margin-top:2rem}
details{border:1px solid #ccd;border-radius:6px;margin:.4rem 0;padding:.3rem .7rem}
summary{cursor:pointer}summary:focus-visible{outline:3px solid #0b5cad}
code.m{display:inline-block;min-width:3.5rem;font-weight:700;color:#fff;background:#0b5cad;border-radius:4px;text-align:center;margin-right:.5rem}
code.m.post{background:#1f7a3a}pre{background:#f4f6fa;padding:.6rem;overflow:auto;font-size:13px}
</style></head><body>
<h1>${doc.info.title} <small>${doc.info.version}</small></h1>
<p>${doc.info.description} Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).</p>
${raw(
  [...byTag.entries()]
    .map(
      ([tag, ops]) =>
        `<h2>${escapeHtml(tag)}</h2>` +
        ops
          .map(
            ({ method, path, op }) =>
              `<details><summary><code class="m ${method}">${method.toUpperCase()}</code><code>${escapeHtml(path)}</code> ${escapeHtml(op.summary ?? '')}</summary>` +
              (op.parameters ? `<h4>Query parameters</h4><pre>${escapeHtml(pretty(op.parameters))}</pre>` : '') +
              (op.requestBody ? `<h4>Request body</h4><pre>${escapeHtml(pretty(op.requestBody.content))}</pre>` : '') +
              `<h4>Responses</h4><pre>${escapeHtml(pretty(op.responses))}</pre></details>`,
          )
          .join(''),
    )
    .join(''),
)}
</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}
