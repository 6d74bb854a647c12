import { databaseOf } from './db/binding';
import { cellNames, openCellSession } from './db/cells';
import { openSession } from './db/session';
import type { Bindings } from './env';
import { HISTORY_PRUNE_CRON, pruneHistory } from './history/retention';
import { pruneSignInThrottle } from './accounts/sign-in-throttle';
import { sweepDeps, sweepJobs } from './runners/recovery';
import { runDueSyncs } from './sync/schedule';
import { tidySearchIndex } from './catalog/search-tidy';
import { pruneCompletenessDaily, pruneScopeSetDaily } from './completeness/completeness-trend';
import { keepCatalogScopeDays, pruneCatalogScopeDaily } from './completeness/catalog-scope-days';
import { pokeActiveDispatchers } from './webhooks/dispatcher-object';
import { pruneAllDeliveries } from './webhooks/retention';

/**
 * Cron Triggers (`[triggers]` of wrangler.toml, or of wrangler.consumer.toml when the consumer is
 * its own Worker): one line per periodic domain task, each bounded. Shared by both Workers' entry
 * points (src/index.ts, src/consumer.ts), so the sweeps are the same wherever they run.
 */
export async function scheduled(controller: ScheduledController, env: Bindings): Promise<void> {
  const now = new Date(controller.scheduledTime);
  // Sweeps and schedules decide from the newest state: they start on the primary. The
  // sign-in throttle is in the directory; jobs, history and syncs are tenant rows, so every
  // cell is swept (its requeued messages name their cell).
  const directory = openSession(databaseOf(env)).primary();
  await pruneSignInThrottle(directory);
  for (const cell of cellNames(env)) {
    const db = openCellSession(env, cell).primary();
    await sweepJobs(sweepDeps(env, db), now);
    if (controller.cron === HISTORY_PRUNE_CRON) {
      await pruneHistory(db);
      await pruneCompletenessDaily(db);
      await pruneScopeSetDaily(db);
      await pruneCatalogScopeDaily(db);
      await pruneAllDeliveries(db);
    }
    await runDueSyncs({ db, queue: env.JOB_QUEUE, publicBaseUrl: env.PUBLIC_BASE_URL }, now);
    // the search index's segments merged a few seconds' worth per tick (docs/search.md "Index upkeep")
    await tidySearchIndex(db);
    // webhook dispatchers of companies with an enabled endpoint run again after a deploy or a lost alarm
    await pokeActiveDispatchers(env.WEBHOOK_DISPATCHER, db);
    // the day rows of members' scopes naming catalogs: a few scopes counted per tick, each once a
    // day, after the other upkeep (a count is the heaviest step)
    await keepCatalogScopeDays(directory, db, cell);
  }
}
