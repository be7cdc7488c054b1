// Kept for its importers while they move to src/trust/ownership.ts, the one trust rule (#37).
export { notOurFolder, untrustedBookkeeping } from '../trust/ownership.js';
