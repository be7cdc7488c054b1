// The program's entry (dist/cli.js, and the script inside the standalone executables). It answers
// --version before any other module loads, then hands argv to main(); all it imports is paid on
// every start, so it imports nothing but a built-in and the command line's spec (plain data) statically.
// Built as CommonJS (scripts/build.mjs), whose loader starts faster than Node's ES module loader.
import { writeSync } from 'node:fs';
import { locateCommand } from './cli/spec.js';

declare const CUDAWIZ_VERSION: string; // replaced by scripts/bundle-options.mjs with package.json's version

type Program = { main(argv: string[]): Promise<number> };

const argv = process.argv.slice(2);

/**
 * `requirements` without a catalog overlay (the command scripts call most) gets main() from one
 * CommonJS file holding only that command's modules (the build points the require() below there):
 * no ES module loader, no chunks to resolve. An overlay needs the validating loader (zod), which
 * only the full program carries.
 */
function requirementsAlone(): boolean {
  return locateCommand(argv)?.name === 'requirements' && !argv.some((a) => a.startsWith('--catalog')) && process.env.CUDAWIZ_CATALOG === undefined;
}

if (argv[0] === '--version' || argv[0] === '-v') {
  // Straight to fd 1: setting up process.stdout costs more than the rest of this answer.
  try {
    writeSync(1, `${CUDAWIZ_VERSION}\n`);
  } catch {
    // a closed pipe: nobody is reading
  }
} else {
  // `cudawiz … | head` closes the pipe early: that is the reader's choice, not an error to report.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  const program: Promise<Program> = requirementsAlone() ? Promise.resolve().then(() => require('./cli.js') as Program) : import('./cli.js');
  program
    .then(({ main }) => main(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error: unknown) => {
        process.stderr.write(`cudawiz: ${String(error)}\n`);
        process.exitCode = 1;
      },
    );
}
