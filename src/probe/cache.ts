// Python and TensorFlow probed once per run: a real `import tensorflow` takes seconds (it loads CUDA),
// so its facts are kept per interpreter and re-probed only after a step says it changed them (a pip
// install, a new venv). Everything else (toolkits, libraries, the GPU) is cheap and probed afresh.
import type { Host } from '../host.js';
import { probeMachine, type ProbeOptions } from './index.js';
import type { MachineFacts, PythonFacts } from './types.js';

export class ProbeCache {
  private readonly python = new Map<string, Promise<PythonFacts>>();

  constructor(private readonly host: Host) {}

  /** The machine's facts; the Python ones from the first probe of that interpreter this run. */
  async machine(options: ProbeOptions = {}): Promise<MachineFacts> {
    const key = options.python ?? '';
    const known = this.python.get(key);
    if (known) return probeMachine(this.host, { ...options, knownPython: await known });
    const facts = probeMachine(this.host, options);
    this.python.set(
      key,
      facts.then((f) => f.python),
    );
    // A probe that failed outright is not kept: the next call tries again.
    facts.catch(() => this.python.delete(key));
    return facts;
  }

  /** A step changed this interpreter (or, without one, the default): the next probe runs it again. */
  pythonChanged(python?: string): void {
    this.python.delete(python ?? '');
  }
}
