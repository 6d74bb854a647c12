import path from 'node:path';
import { startVendure } from './start';

/** `npm run shop:vendure`: the local Vendure shop on port 3100 (or PORT), data in shops/vendure/.data, until Ctrl-C. */
const port = Number(process.env.PORT ?? 3100);
const shop = await startVendure({ port, dataDir: path.join(import.meta.dirname, '.data') });
console.log(`Vendure Admin API: ${shop.adminApiUrl} (user ${shop.username}, password ${shop.password})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    shop.stop().finally(() => process.exit(0));
  });
}
