// #39's "done when" through the wizard, in Simplified Chinese: every repair class walked in a real
// terminal at 80×24 as the English file does (test/helpers/repair-walk.ts), and no English sentence on
// any screen on the way (test/helpers/english-runs.ts). In the slow lane (vitest.config.ts slowFiles).
import { repairWalks } from '../helpers/repair-walk.js';

repairWalks('zh');
