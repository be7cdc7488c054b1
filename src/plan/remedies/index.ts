// Repair planned from the findings: the table (derived from the finding-kind registry), the plan as
// data, the remedy records, and the steps.
export { BLOCKING_STOPS, REMEDY_TABLE, rowFor, type RemedyId, type RemedyRow, type StopId } from './table.js';
export { planRepair, unremedied, type RepairItem, type RepairPlan } from './plan.js';
export { placeCudnn, type CudnnPlace } from './place.js';
export { REMEDIES, REMEDY_ORDER, type Remedy, type RouteRepairSteps } from './records.js';
export { remedySteps, settleRepairContext } from './steps.js';
export { leftToUserStep, stopStep } from '../steps/repair-stop.js';
export { loadOrderStep } from '../steps/load-order.js';
export { newShellVerifyStep } from '../steps/new-shell-verify.js';
export { wheelLoaderPathRemedy } from '../steps/wheel-loader.js';
