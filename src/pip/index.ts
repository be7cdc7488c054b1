// The pip-managed CUDA route (tensorflow[and-cuda], Linux and WSL2), for the doctor and the plan.
export { createVenv, isVenv, type CreateVenvOptions, type Venv } from './venv.js';
export { pipInstallTensorflow, parsePipLine, parsePipSize, type PipEvent, type PipInstallOptions, type PipInstallResult } from './install.js';
export { probePipCuda, scanSitePackages, whichLibraryTfLoads, wheelComponent, type LibrarySource, type LoaderView, type PipCudaFacts, type WheelPackage } from '../wheels/facts.js';
export { applyWheelLibraryFix, planWheelLibraryFix, readWheelFixRecord, undoWheelLibraryFix, wheelFixRecordFile, FIX_BEGIN, FIX_END, FIX_RECORD, type WheelFixRecord, type WheelLibraryFix } from './wheel-fix.js';
export { WHEEL_LOADER_FACTS, wheelLoaderFact, type WheelLoaderFact, type WheelLoaderNeed } from '../wheels/loader-facts.js';
