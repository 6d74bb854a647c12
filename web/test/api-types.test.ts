import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web app's API types come from the OpenAPI document (`npm run gen:web-api`), so using a
 * field the API does not send is a compile error. These probes compile a few lines against the
 * same tsconfig as `npm run typecheck` (`tsc -p web`) and expect exactly the errors named.
 */
const pathOf = (relative: string) => decodeURIComponent(new URL(relative, import.meta.url).pathname);
const webDir = pathOf('..');
const probePath = pathOf('../src/__probe__.ts');

const config = ts.readConfigFile(`${webDir}/tsconfig.json`, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, webDir);

let previous: ts.Program | undefined;

/** The compiler's errors for a probe file placed in web/src (never written to disk). */
function errorsOf(source: string): string[] {
  const host = ts.createCompilerHost(parsed.options);
  const readFile = host.readFile;
  host.readFile = (name) => (name === probePath ? source : readFile(name));
  host.fileExists = (name) => name === probePath || ts.sys.fileExists(name);
  const program = ts.createProgram([probePath], parsed.options, host, previous);
  previous = program;
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(probePath))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const probe = (body: string) => `
import { apiGet, apiPost } from './api/client';
import type { Category, ProductDetail } from './api/models';
export async function probe(category: Category, product: ProductDetail) {
${body}
}`;

// A cold compile of the web app's types takes a few seconds on a shared machine.
describe('the web client is typed by the API', { timeout: 60_000 }, () => {
  it('compiles the fields the API sends', () => {
    expect(
      errorsOf(
        probe(`
  const n: number = category.productCount + category.subtreeProductCount;
  const sku: string | null = product.sku;
  const page = await apiGet('Catalog/GetProducts', { catalogId: 'c', limit: 10 });
  const first: string | undefined = page.items[0]?.productId;
  const created = await apiPost('Catalog/AddCategory', { departmentId: 'd', catalogId: 'c', name: 'n' });
  return [n, sku, first, created.categoryId];`),
      ),
    ).toEqual([]);
  });

  it('refuses a field the API does not send (the hand-written Category had hasChildren and childCount)', () => {
    const errors = errorsOf(probe('  return [category.hasChildren, category.childCount];'));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/Property 'hasChildren' does not exist/);
    expect(errors[1]).toMatch(/Property 'childCount' does not exist/);
  });

  it('refuses an operation that does not exist, a query parameter it does not take, and a body field it lacks', () => {
    const errors = errorsOf(
      probe(`
  await apiGet('Catalog/GetNothing');
  await apiGet('Catalog/GetCategories', { catalogId: 'c', depth: 2 });
  await apiPost('Catalog/DeleteProduct', { productId: 'p' });`),
    );
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/'"Catalog\/GetNothing"' is not assignable/);
    expect(errors[1]).toMatch(/'depth' does not exist/);
    expect(errors[2]).toMatch(/Property 'departmentId' is missing/);
  });
});
