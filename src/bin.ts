// The program's entry (dist/cli.js, and the script inside the standalone executables). It answers
// --version before any other module loads, then hands argv to main(); all it imports is paid on
// every start, so it imports nothing statically.
declare const CUDAWIZ_VERSION: string; // replaced by scripts/build.mjs with package.json's version

const argv = process.argv.slice(2);

// `cudawiz … | head` closes the pipe early: that is the reader's choice, not an error to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

if (argv[0] === '--version' || argv[0] === '-v') {
  process.stdout.write(`${CUDAWIZ_VERSION}\n`);
} else {
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
