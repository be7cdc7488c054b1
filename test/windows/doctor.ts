// Reading the CLI's JSON answers in the stories.
import type { WineMachine, WineRun } from './wine.js';

export interface DoctorFinding {
  id: string;
  status: 'pass' | 'warn' | 'fail' | 'skip';
  title: string;
  evidence: string[];
  fix: string | null;
}

export async function doctorJson(m: WineMachine, ...args: string[]): Promise<{ run: WineRun; findings: DoctorFinding[] }> {
  const run = await m.cli(['doctor', '--json', ...args]);
  try {
    return { run, findings: (JSON.parse(run.stdout) as { findings: DoctorFinding[] }).findings };
  } catch {
    throw new Error(`doctor --json printed no JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

/** A run's output, for an assertion's message. */
export const shown = (r: WineRun) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`;
