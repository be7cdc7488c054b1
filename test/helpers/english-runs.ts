// The finder's rule: runs of three or more plain English words in a line, once commands, quoted
// text, paths, versions and names are set aside. A zh screen or report with such a run still has a
// sentence nobody translated.

// A command runs to the end of its ASCII stretch: cudawiz install --tf 2.3 --cudnn-archive FILE, pip install "…", conda remove …
const COMMAND = /(?:^|\s|[`(（：:])(?:cudawiz|pip|conda|python3?|export|echo|sudo|wsl|ls|dir|winver|npm|apt|apt-get)\s.*$/;

// A list of cudawiz's command names ("requirements, doctor, install, repair") names commands, not a sentence.
const CMD_LIST = /\b(?:requirements|doctor|explain|install|repair|download|rollback|plan)(?:,\s*(?:requirements|doctor|explain|install|repair|download|rollback|plan))+\b/g;

/** Runs of ≥ 3 English words in one line. */
export function englishRuns(line: string): string[] {
  const runs: string[] = [];
  // A program's own log quoted as it wrote it (the CUDA installer's "[ERROR]: …" tail), like TF's
  // error lines: kept verbatim so it can be searched, and explained around it.
  if (/^\s*\[(?:ERROR|INFO|WARNING|WARN)\]:/.test(line)) return runs;
  // Chinese text and full-width punctuation split the line into its ASCII stretches.
  for (const stretch of line.split(/[^\x00-\x7F]+/)) {
    // The share block's "[ok] finding-id:" prefixes are ids, not words.
    const s = stretch.replace(/\[(?:ok|!!|XX|--)\] [\w:.\\/-]+:/g, ' ').replace(/`[^`]*`/g, ' ').replace(/"[^"]*"/g, ' ').replace(COMMAND, ' ').replace(CMD_LIST, ' ');
    let run: string[] = [];
    const close = () => {
      if (run.length >= 3) runs.push(run.join(' '));
      run = [];
    };
    for (const raw of s.split(/\s+/)) {
      const w = raw.replace(/^[([{'"]+|[)\]}'",.;:!?]+$/g, '');
      // A plain lowercase word counts as English; a capitalised one is a name (Visual Studio, GeForce) and ends a run.
      if (/^[a-z]{2,}$/.test(w)) run.push(w);
      else close();
    }
    close();
  }
  return runs;
}

/** Every English run in a text, each with the line it came from. */
export function englishIn(output: string): string[] {
  return output.split('\n').flatMap((line) => englishRuns(line).map((run) => `${run}   ⟵ ${line.trim()}`));
}
