import path from 'node:path';

/**
 * What a shell command Codex ran did to a skill's files, read from the command line alone (no
 * filesystem). Codex prints every command inside its shell wrapper (`/bin/bash -lc '…'`); the
 * script inside is split into simple commands at `|`, `&&`, `||`, `;`, `&` and newlines, and each
 * is checked the way Codex's own implicit-skill detector checks one (docs/codex.md "The decision"):
 * - a reader (`cat`, `sed`, `head`, `tail`, `nl`, `less`, `more`, `bat`, `awk`, …) with an operand
 *   that resolves to the SKILL.md reads it;
 * - a runner (`python3`, `bash`, `node`, …) whose first operand is a script under the skill's
 *   `scripts/` folder, or that script run directly, runs it.
 * Paths may be absolute, relative to the working directory (a `cd` before it is followed), or the
 * listing's unexpanded alias (`r4/<dir>/SKILL.md`), which fails in the shell but names the file.
 */

/** How one skill's files are spelled in commands. */
export interface SkillFiles {
  /** Absolute path of the SKILL.md. */
  filePath: string;
  /** Other absolute spellings of it (the realpath when the temp folder sits behind a symlink). */
  aliases?: readonly string[];
  /**
   * The path under its skills root, `<dir>/SKILL.md`: the listing shows it behind an alias
   * (`r4/<dir>/SKILL.md`), and which `r<n>` depends on the other roots present.
   */
  listedFile?: string;
}

const READERS = new Set(['cat', 'sed', 'head', 'tail', 'nl', 'less', 'more', 'bat', 'batcat', 'awk', 'tac']);
const RUNNERS = new Set(['python', 'python3', 'bash', 'zsh', 'sh', 'node', 'deno', 'ruby', 'perl', 'pwsh']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);
const SCRIPT_EXTENSIONS = ['.py', '.sh', '.js', '.ts', '.rb', '.pl', '.ps1', '.mjs', '.cjs'];
const OPERATORS = new Set(['|', '||', '&&', ';', '&', '\n']);

/**
 * Splits a command line as a POSIX shell would into words and operators: single quotes are
 * literal, double quotes honour `\"`, `\\`, `\$` and `` \` ``, a backslash outside quotes escapes the
 * next character. Expansions are not performed (a `$VAR` stays as written).
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let open = false;
  const push = (): void => {
    if (open) words.push(word);
    word = '';
    open = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end < 0 ? line.length : end;
      word += line.slice(i + 1, stop);
      open = true;
      i = stop;
    } else if (c === '"') {
      open = true;
      for (i += 1; i < line.length && line[i] !== '"'; i++) {
        const d = line[i] ?? '';
        const next = line[i + 1] ?? '';
        if (d === '\\' && '"\\$`'.includes(next) && next !== '') {
          word += next;
          i += 1;
        } else word += d;
      }
    } else if (c === '\\') {
      word += line[i + 1] ?? '';
      open = true;
      i += 1;
    } else if (c === ' ' || c === '\t') {
      push();
    } else if (c === '\n' || c === ';' || c === '|' || c === '&') {
      push();
      const two = line.slice(i, i + 2);
      if (two === '&&' || two === '||') {
        words.push(two);
        i += 1;
      } else words.push(c);
    } else {
      word += c;
      open = true;
    }
  }
  push();
  return words;
}

/** An argv as one shell line (`/bin/bash -lc 'cat …'`), each word single-quoted when it needs it. */
export function commandLine(argv: readonly string[]): string {
  return argv
    .map((word) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** The simple commands of a word list, split at the operators. */
function simpleCommands(words: string[]): string[][] {
  const commands: string[][] = [[]];
  for (const word of words) {
    if (OPERATORS.has(word)) commands.push([]);
    else commands[commands.length - 1]?.push(word);
  }
  return commands.filter((c) => c.length > 0);
}

/** `VAR=value` words before the program are assignments, not the program. */
function withoutAssignments(words: string[]): string[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] ?? '')) i++;
  return words.slice(i);
}

/** The script of a shell wrapper (`bash -lc 'script'`, `sh -c script`), if the words are one. */
function wrappedScript(words: string[]): string | undefined {
  const program = path.basename(words[0] ?? '');
  if (!SHELLS.has(program)) return undefined;
  const flag = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w));
  return flag < 0 ? undefined : words[flag + 1];
}

/** Every simple command of a command line, shell wrappers unwrapped, with the directory it runs in. */
function commandsIn(line: string, cwd: string, depth = 0): Array<{ words: string[]; cwd: string }> {
  const out: Array<{ words: string[]; cwd: string }> = [];
  let dir = cwd;
  for (const raw of simpleCommands(shellWords(line))) {
    const words = withoutAssignments(raw);
    if (words.length === 0) continue;
    const script = depth < 3 ? wrappedScript(words) : undefined;
    if (script !== undefined) {
      out.push(...commandsIn(script, dir, depth + 1));
    } else if (words[0] === 'cd' && words[1] !== undefined && !words[1].startsWith('-')) {
      dir = path.resolve(dir, words[1]);
    } else {
      out.push({ words, cwd: dir });
    }
  }
  return out;
}

/** `r<n>/<listedFile>`: the listing's alias form, which no shell expands. */
function isAliased(operand: string, listedFile: string): boolean {
  const match = /^r\d+\/(.+)$/.exec(path.normalize(operand));
  return match?.[1] === listedFile;
}

function namesFile(operand: string, cwd: string, files: SkillFiles): boolean {
  if (operand === '' || operand.startsWith('-')) return false;
  if (files.listedFile !== undefined && isAliased(operand, files.listedFile)) return true;
  const resolved = path.resolve(cwd, operand);
  return resolved === files.filePath || (files.aliases ?? []).includes(resolved);
}

function underScripts(operand: string, cwd: string, files: SkillFiles): boolean {
  if (operand === '') return false;
  const resolved = path.resolve(cwd, operand);
  const dirs = [files.filePath, ...(files.aliases ?? [])].map((f) => path.join(path.dirname(f), 'scripts'));
  const listed =
    files.listedFile === undefined ? undefined : path.join(path.dirname(files.listedFile), 'scripts');
  const aliased = /^r\d+\/(.+)$/.exec(path.normalize(operand))?.[1];
  return (
    dirs.some((dir) => resolved.startsWith(`${dir}/`)) ||
    (listed !== undefined && aliased?.startsWith(`${listed}/`) === true)
  );
}

function runsScript(words: string[], cwd: string, files: SkillFiles): boolean {
  const program = words[0] ?? '';
  const runner = path
    .basename(program)
    .toLowerCase()
    .replace(/\.exe$/, '');
  if (RUNNERS.has(runner)) {
    const script = words.slice(1).find((w) => !w.startsWith('-'));
    if (script === undefined) return false;
    const known = SCRIPT_EXTENSIONS.some((ext) => script.toLowerCase().endsWith(ext));
    return known && underScripts(script, cwd, files);
  }
  return program.includes('/') && underScripts(program, cwd, files);
}

/** What a command line does with one skill's files. */
export type SkillUse = 'read' | 'script' | undefined;

export function skillUse(command: string, cwd: string, files: SkillFiles): SkillUse {
  for (const { words, cwd: dir } of commandsIn(command, cwd)) {
    if (runsScript(words, dir, files)) return 'script';
    const program = path.basename(words[0] ?? '').toLowerCase();
    if (!READERS.has(program)) continue;
    const operands = words.slice(1).filter((w) => w !== '<');
    if (operands.some((w) => namesFile(w, dir, files))) return 'read';
  }
  return undefined;
}

/** Whether a command line reads some file named SKILL.md (another skill's, when it is not the stub's). */
export function readsSomeSkillFile(command: string, cwd: string): boolean {
  return commandsIn(command, cwd).some(
    ({ words }) =>
      READERS.has(path.basename(words[0] ?? '').toLowerCase()) &&
      words.slice(1).some((w) => !w.startsWith('-') && path.basename(w) === 'SKILL.md'),
  );
}
