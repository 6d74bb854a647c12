import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../http/validate';
import { describeOperation } from '../../openapi/describe-operation';
import { getLanguages, LanguagesOut, SetLanguagesDto, setLanguages } from './languages';

/** `/api/Catalog/GetLanguages` and `/api/Catalog/SetLanguages`: the company's content languages (docs/languages.md). */
export const languageRoutes = new Hono<AppEnv>()
  .get(
    '/GetLanguages',
    describeOperation({
      tag: 'Catalog',
      summary: "The company's content languages, its default, and every language it can enable",
      response: LanguagesOut,
      security: 'cookie',
    }),
    async (c) => c.json(await getLanguages(c.var.db, c.var.caller)),
  )
  .post(
    '/SetLanguages',
    describeOperation({
      tag: 'Catalog',
      summary: "Enable the company's content languages and choose the default (admin only)",
      response: LanguagesOut,
      security: 'cookie',
      adminOnly: true,
      conflict: 'A catalog still publishes a language being disabled',
    }),
    validate('json', SetLanguagesDto),
    async (c) => c.json(await setLanguages(c.var.db, c.var.caller, c.req.valid('json'))),
  );
