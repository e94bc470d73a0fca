/**
 * The help as text: `renderCommandHelp` turns a command's entry (command-help.ts) into what
 * `skilltrigger <command> --help` and `skilltrigger help <command>` print; the top-level usage and
 * a usage error's synopsis come from the same entries.
 */
import { COMMAND_HELP, COMMAND_NAMES, type CommandName } from './commands.js';
import type { CommandHelp, OptionHelp } from './options.js';

function optionLabel(o: OptionHelp, dashes: boolean): string {
  return `${dashes ? `--${o.name}` : `<${o.name}>`}${o.value ? ` ${o.value}` : ''}`;
}

/** Help lines stay within a terminal of this width. */
const WIDTH = 100;
/** Labels longer than this stand on their own line, their text below. */
const LABEL_WIDTH = 24;

/** Greedy word wrap; a word longer than the width stands alone. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return line === '' ? lines : [...lines, line];
}

function explained(items: readonly OptionHelp[], dashes: boolean): string[] {
  const pad = ' '.repeat(2 + LABEL_WIDTH + 2);
  return items.flatMap((o) => {
    const label = optionLabel(o, dashes);
    const [first = '', ...rest] = wrap(o.text, WIDTH - pad.length);
    const head =
      label.length > LABEL_WIDTH
        ? [`  ${label}`, `${pad}${first}`]
        : [`  ${label.padEnd(LABEL_WIDTH)}  ${first}`];
    return [...head, ...rest.map((line) => `${pad}${line}`)];
  });
}

/** A command's `Usage:` and its lines, as its help starts it. */
function usageBlock(name: CommandName): string {
  const usage: readonly string[] = COMMAND_HELP[name].usage;
  return ['Usage:', ...usage.map((u, i) => `  ${i === 0 ? 'skilltrigger ' : '             '}${u}`)].join(
    '\n',
  );
}

/** What `skilltrigger <command> --help` prints, ending with a newline. */
export function renderCommandHelp(name: CommandName): string {
  const h: CommandHelp = COMMAND_HELP[name];
  const lines = [`skilltrigger ${name} — ${h.summary}`, '', usageBlock(name)];
  if (h.args) lines.push('', 'Arguments:', ...explained(h.args, false));
  lines.push(
    '',
    'Options:',
    ...explained([...h.options, { name: 'help', value: '(or -h)', text: 'show this help' }], true),
  );
  lines.push('', 'Exit codes:', ...h.exitCodes.map(([code, text]) => `  ${code}  ${text}`));
  lines.push('', 'Examples:');
  for (const [comment, command] of h.examples) lines.push(`  # ${comment}`, `  ${command}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A command's synopsis as the top-level usage shows it: every option of its help entry, the first
 * line after `skilltrigger `, the rest aligned under the command's name.
 */
export function synopsis(name: CommandName): string[] {
  const h: CommandHelp = COMMAND_HELP[name];
  const indent = ' '.repeat('skilltrigger '.length);
  return h.usage.map((u, i) => (i === 0 ? `skilltrigger ${u}` : `${indent}${u}`));
}

/** The lines of the top-level usage after the commands' synopses (the README's command list, in its "The CLI" section, ends with them). */
const GENERAL_LINES = [
  'skilltrigger <command> --help    # or: skilltrigger help <command>',
  'skilltrigger --version           # or: -v',
];

/**
 * The command list as the README's "The CLI" block shows it: every command's full synopsis (from
 * its help entry, so no option is left out), then help and version. `__tests__/cli/docs.test.ts`
 * compares the README with it.
 */
export function commandList(): string[] {
  return [...COMMAND_NAMES.flatMap(synopsis), ...GENERAL_LINES];
}

/** A command's synopsis and where its options are explained: what a usage error of that command shows. */
export function commandUsage(name: CommandName): string {
  return [...synopsis(name), `(skilltrigger ${name} --help explains every option)`].join('\n');
}

/** What `skilltrigger`, `skilltrigger help` and `skilltrigger --help` print (no trailing newline). */
export const USAGE = `skilltrigger — measure how often a skill description makes a coding agent load the skill

Usage:
${commandList()
  .map((line) => `  ${line}`)
  .join('\n')}

Commands:
${COMMAND_NAMES.map((n) => `  ${n.padEnd(10)}${COMMAND_HELP[n].summary}`).join('\n')}

Every option of a command: skilltrigger <command> --help (or skilltrigger help <command>).
Exit codes: 0 a verdict, 1 usage or input error, 2 a failed gate, 3 no verdict.`;
