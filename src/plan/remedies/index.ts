// Repair planned from the findings: the table, the plan as data, and the steps.
export { BLOCKING_STOPS, REMEDY_TABLE, rowFor, type RemedyId, type RemedyRow, type StopId } from './table.js';
export { planRepair, unremedied, type RepairItem, type RepairPlan } from './plan.js';
export { leftToUserStep, loadOrderStep, newShellVerifyStep, remedySteps, stopStep, wheelLoaderPathRemedy } from './steps.js';
