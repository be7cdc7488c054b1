// The program's entry (dist/cli.js, and the script inside the standalone executables). It answers
// --version before any other module loads, then hands argv to main(); all it imports is paid on
// every start, so it imports nothing but a built-in statically.
// Built as CommonJS (scripts/build.mjs), whose loader starts faster than Node's ES module loader.
import { writeSync } from 'node:fs';

declare const CUDAWIZ_VERSION: string; // replaced by scripts/bundle-options.mjs with package.json's version

const argv = process.argv.slice(2);

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
  import('./cli.js')
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
