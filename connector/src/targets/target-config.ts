// The PUT /target contract is shared with the PIM: src/sync/protocol/target.ts.
export { targetConfigSchema, toTargetConfig } from '../../../src/sync/protocol/target';
