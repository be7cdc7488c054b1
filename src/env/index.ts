// Making TF's libraries findable: the loader path on Linux, PATH on Windows.
export { applyEnvChanges, journalVenvFix, rollbackEnvChanges, type RollbackOptions, type Undo } from './apply.js';
export { readEnvJournal } from './journal.js';
export { describeEnvChange, envConsent, envPlaces, packageConsent, listToolkitLibraries, planEnvChanges, readLinuxEnvState, readWindowsEnvState, type EnvConsent } from './plan.js';
export { describeEnvPlan, envLinesToRunYourself, prepareEnvPlan, type PrepareEnvOptions } from './prepare.js';
export { parseRegQueryPath, readPersistedPath } from './windows-path.js';
export type * from './types.js';
export { loadOrderExportLine, planLoadOrder, prepareLoadOrder, type LoadOrderInput } from './load-order.js';
export { applyPackageChange, commandLine, managerProgram, readPackageState, undoCommand, type PackageRun, type PackageState } from './package-change.js';
