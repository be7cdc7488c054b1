// Kept for its importers: the one way to write is src/trust/write.ts (#37).
export { createPrivateFile, freshPrivateFolder, lineWriter, openNamedLog, privateFolder } from './trust/write.js';
