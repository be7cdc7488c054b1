// Kept for its importers while they move to src/trust/ownership.ts, the one trust rule (#37).
export { fileWritableByOthers, writableByOthers } from '../trust/ownership.js';
