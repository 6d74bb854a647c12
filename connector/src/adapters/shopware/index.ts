export { createShopwareAdapter, SHOPWARE_BATCH_SIZE } from './adapter';
export { shopwareId } from './ids';
