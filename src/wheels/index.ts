// pip's nvidia-* wheels as facts: what a Python environment's wheels hold, which copy of each library TF
// loads, and the plan that would put their folders on the loader path. Read-only and below both the
// probe (src/probe) and the pip route (src/pip), which re-exports it.
export { probePipCuda, scanSitePackages, whichLibraryTfLoads, wheelComponent, type LibrarySource, type LoaderView, type PipCudaFacts, type WheelPackage } from './facts.js';
export { FIX_BEGIN, FIX_END, FIX_RECORD, fixLines, planWheelLibraryFix, type WheelLibraryFix } from './fix-plan.js';
export { WHEEL_LOADER_FACTS, wheelLoaderFact, type WheelLoaderFact, type WheelLoaderNeed } from './loader-facts.js';
