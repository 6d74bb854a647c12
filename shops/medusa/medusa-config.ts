import { defineConfig, loadEnv } from '@medusajs/framework/utils';

loadEnv(process.env.NODE_ENV || 'development', process.cwd());

/**
 * A headless Medusa v2 server for the Medusa adapter's tests (docs/shops.md): PostgreSQL from
 * DATABASE_URL, no Redis (Medusa's defaults without REDIS_URL are the in-memory event bus,
 * cache, workflow engine and locking), no admin build, local files under ./static served by
 * this server, and the Translation Module (behind its feature flag in 2.21).
 */
const port = process.env.PORT ?? '9100';
const cors = process.env.MEDUSA_CORS ?? `http://localhost:${port},http://127.0.0.1:${port}`;

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    databaseDriverOptions: { ssl: false },
    http: {
      storeCors: cors,
      adminCors: cors,
      authCors: cors,
      jwtSecret: process.env.JWT_SECRET ?? 'local-medusa-jwt-secret',
      cookieSecret: process.env.COOKIE_SECRET ?? 'local-medusa-cookie-secret',
    },
  },
  admin: { disable: true },
  featureFlags: { translation: true },
  modules: [
    // defineConfig decides this module's `disable` before the feature flags are loaded: name it here.
    { resolve: '@medusajs/medusa/translation' },
    {
      resolve: '@medusajs/medusa/file',
      options: {
        providers: [
          {
            resolve: '@medusajs/medusa/file-local',
            id: 'local',
            options: { backend_url: `${process.env.MEDUSA_BACKEND_URL ?? `http://127.0.0.1:${port}`}/static` },
          },
        ],
      },
    },
  ],
});
