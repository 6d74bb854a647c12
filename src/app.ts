import { Hono } from 'hono';
import { except } from 'hono/combine';
import { accountRoutes } from './accounts/account.routes';
import { ssoRoutes } from './accounts/sso.routes';
import { scimRoutes } from './accounts/scim.routes';
import { aiRoutes } from './ai/ai.routes';
import { checkOrigin, requireSession } from './accounts/session-auth';
import { attributeRoutes } from './catalog/attribute.routes';
import { catalogRoutes } from './catalog/catalog.routes';
import { massEditRoutes } from './catalog/mass-edit.routes';
import { contactRoutes } from './contact/contact.routes';
import { categoryRoutes } from './catalog/category.routes';
import { classificationRoutes } from './classification/classification.routes';
import { releaseRoutes } from './releases/release.routes';
import { productRoutes } from './catalog/product.routes';
import type { AppEnv } from './env';
import { exportRoutes } from './exports/export.routes';
import { notFound } from './kernel/app-error';
import {
  LARGE_JSON_PATHS,
  limitBody,
  limitLargeJson,
  RAW_BODY_PATHS,
  FORM_BODY_PATHS,
  requestContext,
  requireJson,
  securityHeaders,
} from './http/middleware';
import { useCell } from './http/cell';
import { importRoutes } from './imports/import.routes';
import { upsertRoutes } from './catalog/upsert/upsert.routes';
import { renderError } from './http/on-error';
import { historyRoutes } from './history/history.routes';
import { jobRoutes } from './jobs/job.routes';
import { syncRoutes } from './sync/sync.routes';
import { signedMediaRoutes } from './media/signed-media.routes';
import { mediaRoutes } from './media/media.routes';
import { mcpManifestRoutes } from './mcp/manifest.routes';
import { oauthRoutes } from './oauth/oauth.routes';
import { openApiDocument } from './openapi/openapi-document';
import { renderReference } from './openapi/reference-page';
import { priceRoutes } from './catalog/prices/prices.routes';
import { referenceRoutes } from './catalog/references/references.routes';
import { featureBlockRoutes } from './catalog/feature-blocks/feature-block.routes';
import { languageRoutes } from './catalog/translations/languages.routes';
import { channelRoutes } from './completeness/channel.routes';
import { reviewRoutes } from './completeness/review.routes';
import { changesRoutes } from './history/changes.routes';
import { webhookRoutes } from './webhooks/webhook.routes';

/**
 * The REST application ({base_url} = /api). Cookie-session controllers are mounted behind
 * `requireSession` and the Origin check; each controller is one sub-app.
 */
export function createApp() {
  const app = new Hono<AppEnv>();
  app.use('*', requestContext, securityHeaders);
  // Uploads carry the raw file (their routes check size and type); bulk upserts are larger JSON; all else is JSON up to 1 MiB.
  app.use(
    '/api/*',
    except([...RAW_BODY_PATHS, ...LARGE_JSON_PATHS], limitBody),
    except([...RAW_BODY_PATHS, ...FORM_BODY_PATHS], requireJson),
  );
  app.use('/api/Catalog/UpsertProducts', limitLargeJson);

  for (const controller of [
    'Catalog',
    'Changes',
    'Classification',
    'Export',
    'Job',
    'Media',
    'Sync',
    'Import',
    'Webhooks',
  ]) {
    app.use(`/api/${controller}/*`, requireSession, checkOrigin, useCell);
  }
  app.route('/', oauthRoutes);
  app.route('/', mcpManifestRoutes);
  app.route('/api/Account', accountRoutes);
  app.route('/api/Account', ssoRoutes);
  app.route('/scim/v2', scimRoutes);
  app.route('/api/ai', aiRoutes);
  app.route('/api/contact', contactRoutes);
  app.route('/api/Catalog', catalogRoutes);
  app.route('/api/Catalog', categoryRoutes);
  app.route('/api/Catalog', productRoutes);
  app.route('/api/Catalog', attributeRoutes);
  app.route('/api/Catalog', historyRoutes);
  app.route('/api/Catalog', massEditRoutes);
  app.route('/api/Export', exportRoutes);
  app.route('/api/Job', jobRoutes);
  app.route('/api/Media', mediaRoutes);
  app.route('/api/Classification', classificationRoutes);
  app.route('/api/Classification', releaseRoutes);
  app.route('/api/Sync', syncRoutes);
  app.route('/', signedMediaRoutes);
  app.route('/api/Catalog', upsertRoutes);
  app.route('/api/Import', importRoutes);
  app.route('/api/Catalog', priceRoutes);
  app.route('/api/Catalog', referenceRoutes);
  app.route('/api/Catalog', featureBlockRoutes);
  app.route('/api/Catalog', languageRoutes);
  app.route('/api/Catalog', channelRoutes);
  app.route('/api/Catalog', reviewRoutes);
  app.route('/api/Changes', changesRoutes);
  app.route('/api/Webhooks', webhookRoutes);

  const documentFor = (url: string) => openApiDocument(app, `${new URL(url).origin}/api`);
  app.get('/api/openapi.json', async (c) => c.json(await documentFor(c.req.url)));
  app.get('/api/docs', async (c) => {
    c.header('Cache-Control', 'no-cache');
    // The page is self-contained: no scripts at all, inline styles only, and never in a frame.
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    c.header('X-Frame-Options', 'DENY');
    return c.html(renderReference(await documentFor(c.req.url)));
  });

  app.notFound(() => {
    throw notFound('route');
  });
  app.onError(renderError);
  return app;
}
