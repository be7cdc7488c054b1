// #39's "done when" through the wizard, in English: every repair class (test/fixtures/repair-classes.ts)
// walked in a real terminal at 80×24 — repair, the doctor in a new shell, rollback, the machine compared
// file by file (test/helpers/repair-walk.ts). The Chinese walk is wizard-repair-walk-zh.test.ts. Both
// are in the slow lane (vitest.config.ts slowFiles): a tmux walk per class through a whole repair.
import { repairWalks } from '../helpers/repair-walk.js';

repairWalks('en');
