import type { paths } from './schema';

/**
 * The REST operations as the web app names them (`Catalog/GetProduct` for `/api/Catalog/GetProduct`),
 * with their query, body and success types read from `schema.d.ts`, which `npm run gen:web-api`
 * generates from the API's OpenAPI document. Nothing here is written by hand: when the API
 * changes a field, the screens that use it stop compiling.
 */
type Trim<P> = P extends `/api/${infer Name}` ? Name : never;
type Operation<P extends string, M extends string> = `/api/${P}` extends keyof paths
  ? M extends keyof paths[`/api/${P}`]
    ? paths[`/api/${P}`][M]
    : never
  : never;

/** Operations that take a GET (with query parameters). */
export type GetPath = { [P in keyof paths]: paths[P]['get'] extends undefined ? never : Trim<P> }[keyof paths];
/** Operations that take a POST. */
export type PostPath = { [P in keyof paths]: paths[P]['post'] extends undefined ? never : Trim<P> }[keyof paths];

/** The query parameters of a GET operation. */
export type QueryOf<P extends GetPath> =
  Operation<P, 'get'> extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? never : Q) : never;

/** The JSON body of a POST operation. */
export type BodyOf<P extends PostPath> =
  Operation<P, 'post'> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

type Success<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;

/** What a GET operation answers with 200. */
export type GetResult<P extends GetPath> = Success<Operation<P, 'get'>>;
/** What a POST operation answers with 200. */
export type PostResult<P extends PostPath> = Success<Operation<P, 'post'>>;
