import { startMedusa } from './start';

/**
 * `npm run shop:medusa`: a local Medusa v2 shop (PostgreSQL 15 + `medusa start`) to point the
 * connector at by hand. Ports and the data directory from MEDUSA_PORT, MEDUSA_PG_PORT and
 * MEDUSA_DATA (defaults 9100, 55432, shops/medusa/data); Ctrl-C stops both processes.
 */
const shop = await startMedusa({
  port: Number(process.env.MEDUSA_PORT ?? 9100),
  pgPort: Number(process.env.MEDUSA_PG_PORT ?? 55432),
  dataDir: process.env.MEDUSA_DATA ?? 'shops/medusa/data',
});
console.log(`Medusa is running on ${shop.url}`);
console.log(`admin ${shop.email} / ${shop.password}; secret API key ${shop.apiKey}`);
const stop = () => {
  shop.stop().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
