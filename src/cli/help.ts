/**
 * The help texts, one per command, as data: `parse-options.ts` reads a command's options from the same
 * table, so an option cannot exist without its explanation. `renderCommandHelp` turns an entry into
 * what `skilltrigger <command> --help` and `skilltrigger help <command>` print. The options several
 * commands explain alike are written once, in help-options.ts.
 */
import { type OptionHelp, SHARED_OPTIONS as SHARED } from './help-options.js';

export type { OptionHelp } from './help-options.js';

export interface CommandHelp {
  /** One line: what the command is for. */
  summary: string;
  /** The synopsis lines, without the leading `skilltrigger `. */
  usage: readonly string[];
  /** Positional arguments, explained like options. */
  args?: readonly OptionHelp[];
  options: readonly OptionHelp[];
  /** What each exit code means for this command. */
  exitCodes: readonly (readonly [number, string])[];
  /** Two command lines, each with a comment line above it. */
  examples: readonly (readonly [string, string])[];
}

/** Why `--workers` is refused: runs never overlap towards the model (docs/design.md, "What one run is"). */
export const WORKERS_REFUSAL =
  'unknown option --workers: skilltrigger runs strictly one claude at a time. Parallel workers each install a stub with the same description, the model loads whichever it likes, and each worker counts only its own: ten workers measure about a tenth of the true rate. A detected run ends in seconds; to spend fewer runs, use --runs auto';

export const COMMAND_HELP = {
  run: {
    summary: 'measure how often a description makes Claude load the skill',
    usage: [
      'run --skill <dir> --eval <file> [--runs 2|auto[:max]] [--model M] [--timeout 30]',
      '    [--description "<text>"] [--baseline-description <text|file>]',
      '    [--baseline-description-file <file>]',
      '    [--stub command|skill] [--out <dir>] [--junit <file>] [--allow-conflict]',
      '    [--max-retries 2] [--threshold 0.5] [--claude <path>] [--debug]',
      '    [--siblings <dir>]... [--cross-negatives]',
      '    [--late N] [--prices <file>] [--max-cost-usd X] [--dry-run] [--standby N]',
      '    [--agent claude|codex[,…]] [--codex <path>]',
    ],
    options: [
      SHARED.skill,
      {
        name: 'agent',
        value: 'claude|codex[,…]',
        text: "the agent CLI that runs the queries: claude (Claude Code, the default) or codex (OpenAI's Codex CLI; docs/codex.md). Several, comma-separated: every query is measured on each, interleaved, in one report judged agent by agent; then --model names each agent's model (claude:<M>,codex:<M>)",
      },
      {
        name: 'codex',
        value: '<path>',
        text: 'the codex binary to run with --agent codex (default: $SKILLTRIGGER_CODEX, else codex on PATH). Its Responses API: $OPENAI_BASE_URL (default https://api.openai.com/v1) with $CODEX_API_KEY, else $OPENAI_API_KEY',
      },
      {
        name: 'eval',
        value: '<file>',
        text: 'the eval set (required): skill-creator JSON, AgentV EVAL.yaml or CSV; checked like `skilltrigger check` before anything runs, and its weak-set warnings shown',
      },
      {
        name: 'runs',
        value: 'N|auto[:max]',
        text: 'runs per query, 1 to 100 (default 2). auto: each query stops once the chance that its remaining runs up to max would change its pass/fail is under 5%; max defaults to 6 (auto:10 allows 10)',
      },
      {
        name: 'model',
        value: '<M[,M2…]>',
        text: "the model claude runs (default: claude's own default). Several, comma-separated (ids or aliases, each once): every query is measured on each, interleaved, in one report with a column per model",
      },
      {
        name: 'timeout',
        value: '<seconds>',
        text: 'wall-clock limit of one run in seconds, 5 to 3600 (default 30; a run needs a few seconds even when the model answers at once); a timed-out run is counted apart, never as a miss',
      },
      {
        name: 'late',
        value: '<N>',
        text: 'keep a run that did not trigger going for up to N more turns, 0 to 10 (default 0: off), and count apart the misses that loaded the skill later; a late load is never a hit and never changes pass/fail',
      },
      {
        name: 'prices',
        value: '<file>',
        text: 'price the tokens with this JSON price table instead of the built-in one (docs/cost.md)',
      },
      {
        name: 'max-cost-usd',
        value: '<X>',
        text: 'refuse (exit 1) when the estimate from the round trip passes X US dollars, saying how many runs X buys; stop before a run that could pass X (no verdict, reason budget, exit 3)',
      },
      {
        name: 'dry-run',
        text: 'run the gates, print the plan (queries × runs × models × sides = runs) and its cost estimate; measure nothing (exit 0)',
      },
      {
        name: 'description',
        value: '"<text>"',
        text: "measure this text instead of SKILL.md's description (the candidate side)",
      },
      {
        name: 'baseline-description',
        value: '<text|file>',
        text: 'also measure this text as the baseline, the "before" side (a file holding it, or the text), interleaved with the candidate (your SKILL.md or --description) in one paired report. A value that looks like a file name (one word with a /, or ending in .md or .txt) but names no file is refused',
      },
      {
        name: 'baseline-description-file',
        value: '<file>',
        text: 'as --baseline-description, the text read from this file (which must exist); the terminal and the report say which form the baseline came from',
      },
      {
        name: 'stub',
        value: 'command|skill',
        text: 'what stands in for the skill in the temp project. command (default): a slash command .claude/commands/<name>-stub-<8 hex>.md, a name nothing installed can collide with. skill: .claude/skills/<name>/SKILL.md under the real name, as Claude Code loads a skill',
      },
      SHARED.out,
      {
        name: 'junit',
        value: '<file>',
        text: 'also write JUnit XML there: one testcase per query (per side in a paired report)',
      },
      SHARED.allowConflict,
      SHARED.maxRetries,
      SHARED.standby,
      {
        name: 'threshold',
        value: '<rate>',
        text: 'a positive passes above this trigger rate, a negative below it (default 0.5)',
      },
      SHARED.claude,
      SHARED.debug,
      {
        name: 'siblings',
        value: '<dir>',
        repeatable: true,
        text: 'install every other SKILL.md under this folder (recursively) beside the stub, each as a stub of its own, so the skill competes with its siblings; the report says which sibling took each run (README "Competition")',
      },
      {
        name: 'cross-negatives',
        text: "with --siblings: also measure each sibling's positives (from its eval set beside its SKILL.md) as extra negatives of this skill, labelled from: <sibling>; the extra runs are printed before they are spent",
      },
    ],
    exitCodes: [
      [0, 'a verdict: the runs were measured (read the numbers for how the skill did)'],
      [1, 'a usage or input error; nothing ran'],
      [2, 'a gate failed; nothing was measured'],
      [3, 'no verdict: too many runs lost, or --max-cost-usd reached; the report is still written'],
    ],
    examples: [
      [
        'Measure a skill, spending runs where they matter:',
        'skilltrigger run --skill skills/handoff --eval skills/handoff/evals.json --runs auto',
      ],
      [
        'Judge the SKILL.md rewrite (candidate) against the old text in old.txt (baseline), interleaved:',
        'skilltrigger run --skill skills/handoff --eval evals.json --baseline-description old.txt',
      ],
    ],
  },
  preflight: {
    summary: 'run the gates alone (cli, auth, round-trip, conflict, sleep, roster)',
    usage: [
      'preflight [--model M] [--skill <dir>] [--out <dir>] [--allow-conflict]',
      '    [--agent claude|codex|claude,codex] [--claude <path>] [--codex <path>]',
    ],
    options: [
      { name: 'model', value: '<M>', text: 'the model the round-trip asks (the one you will measure with)' },
      {
        name: 'skill',
        value: '<dir>',
        text: 'the skill to look for in enabled plugins (the conflict gate)',
      },
      SHARED.out,
      SHARED.allowConflict,
      {
        name: 'agent',
        value: '<agents>',
        text: 'claude (default), codex, or claude,codex: whose gates to run (docs/codex.md "Gates")',
      },
      SHARED.claude,
      {
        name: 'codex',
        value: '<path>',
        text: 'the codex binary to run (default: $SKILLTRIGGER_CODEX, else codex on PATH)',
      },
    ],
    exitCodes: [
      [0, 'every gate passed (warnings allowed)'],
      [1, 'a usage or input error'],
      [2, 'a gate failed: a run would measure nothing'],
    ],
    examples: [
      ['Check the machine before a long run:', 'skilltrigger preflight --model sonnet'],
      ['Also look for a plugin that shadows this skill:', 'skilltrigger preflight --skill skills/handoff'],
    ],
  },
  compare: {
    summary: 'compare two reports (baseline first), or the two sides of one paired report',
    usage: ['compare <a.json> [<b.json>] [--json]'],
    args: [
      {
        name: 'a.json',
        text: 'the baseline report (or, alone, a paired report from --baseline-description)',
      },
      { name: 'b.json', text: 'the candidate report' },
    ],
    options: [{ name: 'json', text: 'print the comparison as versioned JSON instead of text' }],
    exitCodes: [
      [0, 'the comparison was made, whatever its labels (gate on them with --json)'],
      [1, 'a usage or input error: a file that is not a report, or two reports with no query in common'],
    ],
    examples: [
      [
        'Yesterday against today:',
        'skilltrigger compare results/2026-05-01-handoff.json results/2026-05-02-handoff.json',
      ],
      ['A paired report, as JSON:', 'skilltrigger compare results/2026-05-02-handoff.json --json'],
    ],
  },
  check: {
    summary: 'validate SKILL.md files and eval sets without a model call',
    usage: ['check [--skill <dir>]... [--eval <file>]... [--claude <path>]'],
    options: [
      {
        name: 'skill',
        value: '<dir>',
        text: 'a folder holding SKILL.md; repeat for several',
        repeatable: true,
      },
      {
        name: 'eval',
        value: '<file>',
        text: 'an eval set; repeat for several. Also warns on weak sets (fewer than 8 positives or negatives, no near-miss negatives, no holdout)',
        repeatable: true,
      },
      {
        name: 'claude',
        value: '<path>',
        text: "the claude whose own reading of each SKILL.md is checked (a listing probe: no model call, no network); default claude on PATH or $SKILLTRIGGER_CLAUDE; without one, skilltrigger's emulation of it, said so",
      },
    ],
    exitCodes: [
      [0, 'no defect (warnings allowed)'],
      [1, 'a defect in an input, or a usage error'],
    ],
    examples: [
      [
        'Check a skill and its eval set:',
        'skilltrigger check --skill skills/handoff --eval skills/handoff/evals.json',
      ],
      ['Check every eval set at once:', 'skilltrigger check --eval a/evals.json --eval b/EVAL.yaml'],
    ],
  },
  init: {
    summary: 'draft an eval set for a skill through your own claude -p',
    usage: [
      'init --skill <dir> [--out <file>] [--count 20] [--model M] [--timeout 180]',
      '    [--max-retries 2] [--claude <path>]',
    ],
    options: [
      SHARED.skill,
      {
        name: 'out',
        value: '<file>',
        text: 'where the draft goes (default <dir>/evals/evals.json); an existing file is never overwritten',
      },
      {
        name: 'count',
        value: '<n>',
        text: 'prompts to draft, 4 to 100 (default 20): about half should trigger, half near-misses, ~40% of each held out',
      },
      { name: 'model', value: '<M>', text: 'the model that drafts (default: the CLI default)' },
      {
        name: 'timeout',
        value: '<s>',
        text: 'bound on the drafting call in seconds, 5 to 3600 (default 180)',
      },
      SHARED.maxRetriesBrief,
      {
        name: 'claude',
        value: '<path>',
        text: 'the claude to call (default claude on PATH or $SKILLTRIGGER_CLAUDE)',
      },
    ],
    exitCodes: [
      [0, 'the draft was written'],
      [1, 'a usage or input error, a file already there, or an answer that was not an eval set twice'],
      [3, 'no draft: the call was interrupted (Ctrl-C or a signal), timed out or failed; nothing written'],
    ],
    examples: [
      ['Draft 20 prompts beside the skill:', 'skilltrigger init --skill skills/handoff'],
      [
        'Draft 30 with another model, elsewhere:',
        'skilltrigger init --skill skills/handoff --count 30 --model sonnet --out drafts/handoff.json',
      ],
    ],
  },
  improve: {
    summary: 'rewrite the description on significant evidence, checked on the holdout',
    usage: [
      'improve --skill <dir> --eval <file> [--iterations 5] [--runs auto[:max]|N] [--write]',
      '    [--model M] [--timeout 30] [--ask-timeout 180] [--out <dir>]',
      '    [--stub command|skill] [--allow-conflict] [--max-retries 2] [--threshold 0.5]',
      '    [--claude <path>] [--debug] [--max-cost-usd X] [--prices <file>] [--standby N]',
      '    or: --apply <improve-report.json> --skill <dir>',
    ],
    options: [
      SHARED.skill,
      { name: 'eval', value: '<file>', text: 'an eval set with a holdout (split: holdout) (required)' },
      {
        name: 'iterations',
        value: '<n>',
        text: 'rewrites to try at most, 1 to 20 (default 5); each is judged at 0.05 ÷ iterations',
      },
      {
        name: 'runs',
        value: 'auto[:max]|N',
        text: 'runs per query and side (default auto: as many as a query needs)',
      },
      {
        name: 'model',
        value: '<M>',
        text: 'the model measured and asked for rewrites (default: the CLI default)',
      },
      { name: 'timeout', value: '<s>', text: 'per measured run, seconds, 5 to 3600 (default 30)' },
      {
        name: 'max-cost-usd',
        value: '<X>',
        text: 'refuse (exit 1) before anything is measured when the session (every measurement and every rewrite call) is estimated above X US dollars; within it, stop before the step that could pass X (no verdict, exit 3, the improve report written, SKILL.md untouched)',
      },
      {
        name: 'prices',
        value: '<file>',
        text: 'the price table for --max-cost-usd, as for run (docs/cost.md)',
      },
      { name: 'ask-timeout', value: '<s>', text: 'per rewrite call, seconds, 5 to 3600 (default 180)' },
      {
        name: 'out',
        value: '<dir>',
        text: 'where the improve report goes (default ./skilltrigger-results); it holds the description texts',
      },
      { name: 'stub', value: 'command|skill', text: 'the stub layout, as for run (default command)' },
      {
        name: 'write',
        text: 'replace the description in SKILL.md with a winner that held on the holdout (else SKILL.md is never touched)',
      },
      {
        name: 'apply',
        value: '<improve-report.json>',
        text: "put a finished session's winner (one that held on the holdout) into --skill's SKILL.md: no model call, nothing measured; only when SKILL.md's description is still the session's original (else exit 1), changing only the description; prints before, after and the evidence. Takes only --skill",
      },
      { name: 'allow-conflict', text: 'measure even when an enabled plugin has a skill of the same name' },
      SHARED.maxRetriesBrief,
      { name: 'threshold', value: '<rate>', text: 'the pass threshold of a query (default 0.5)' },
      {
        name: 'standby',
        value: '<N>',
        text: 'claudes started ahead of their runs, as for run: 0 to 4; 0: every run starts cold. Default: 1 (2 with 4 or more cores), fewer when memory is short',
      },
      {
        name: 'claude',
        value: '<path>',
        text: 'the claude to run (default claude on PATH or $SKILLTRIGGER_CLAUDE)',
      },
      SHARED.debug,
    ],
    exitCodes: [
      [0, 'the session ran to its end (whatever it recommends); with --apply, the winner was written'],
      [1, "a usage or input error (with --apply: no winner to apply, or SKILL.md's description changed)"],
      [2, 'a failed gate'],
      [3, 'the original description has no verdict, or the session was interrupted'],
    ],
    examples: [
      [
        'Try up to 5 rewrites, leave SKILL.md alone:',
        'skilltrigger improve --skill skills/handoff --eval skills/handoff/evals.json',
      ],
      [
        "Later, put that session's winner into SKILL.md without measuring again:",
        'skilltrigger improve --apply results/2026-05-02-handoff-improve.json --skill skills/handoff',
      ],
    ],
  },
  view: {
    summary: "print the path of a report's HTML page, writing it first if it is missing",
    usage: ['view <report.json> [<b.json>] [--open]'],
    args: [
      { name: 'report.json', text: 'a report written by run (alone: its own page)' },
      {
        name: 'b.json',
        text: 'a second report: the page compares the first (baseline) with it, written in its folder',
      },
    ],
    options: [{ name: 'open', text: "hand the page to the platform's opener (xdg-open, open or start)" }],
    exitCodes: [
      [0, 'the page exists (written now, or already there)'],
      [1, 'a usage or input error: a file that is not a report, or a page that cannot be written'],
    ],
    examples: [
      ['The page of a report:', 'skilltrigger view results/2026-05-02-handoff.json'],
      [
        'Yesterday against today, opened in the browser:',
        'skilltrigger view results/2026-05-01-handoff.json results/2026-05-02-handoff.json --open',
      ],
    ],
  },
  matrix: {
    summary: 'measure the skills under a folder together: which skill each query loads',
    usage: [
      'matrix --skills <dir> [--runs 2] [--model M] [--timeout 30] [--stub command|skill]',
      '    [--out <dir>] [--shard i/n] [--json] [--allow-conflict] [--max-retries 2]',
      '    [--claude <path>] [--debug] [--standby N] [--agent claude|codex] [--codex <path>]',
      '    or: --merge <leg.json> <leg.json>... [--out <dir>] [--json]',
    ],
    options: [
      {
        name: 'skills',
        value: '<dir>',
        text: 'the folder whose SKILL.md files (found recursively) are measured together: each is installed in every run; a skill with an eval set (evals/evals.json, evals.json, evals/EVAL.yaml, EVAL.yaml, evals/evals.csv or evals.csv in its folder) owns its queries, one without is listed "no eval set" and competes only',
      },
      { name: 'runs', value: '<N>', text: 'runs per query, 1 to 100 (default 2)' },
      { name: 'model', value: '<M>', text: "the model the agent runs (default: the agent's own default)" },
      {
        name: 'agent',
        value: 'claude|codex',
        text: "the agent CLI that runs every query: claude (Claude Code, the default) or codex (OpenAI's Codex CLI; docs/codex.md). One agent per matrix: measure the other in a second call",
      },
      {
        name: 'codex',
        value: '<path>',
        text: 'the codex binary to run with --agent codex (default: $SKILLTRIGGER_CODEX, else codex on PATH)',
      },
      {
        name: 'timeout',
        value: '<seconds>',
        text: 'wall-clock limit of one run in seconds, 5 to 3600 (default 30); a timed-out run is counted apart',
      },
      {
        name: 'stub',
        value: 'command|skill',
        text: 'how each skill is installed in the temp project, as for run (default command)',
      },
      SHARED.out,
      {
        name: 'shard',
        value: 'i/n',
        text: 'measure leg i of n: every n-th query, starting at the i-th (every skill still installed); merge the legs with --merge',
      },
      {
        name: 'merge',
        value: '<leg.json>',
        text: 'combine the legs of a sharded matrix into one (the files may follow --merge or repeat it); refuses legs with different skills, descriptions, settings or CLI versions. Runs nothing',
        repeatable: true,
      },
      { name: 'json', text: 'print the matrix report as JSON on stdout (the files are written too)' },
      SHARED.allowConflict,
      SHARED.maxRetries,
      SHARED.standby,
      SHARED.claude,
      SHARED.debug,
    ],
    exitCodes: [
      [0, 'a verdict: every planned run was measured, or few enough were lost'],
      [1, 'a usage or input error (a SKILL.md or eval set that does not parse, legs that differ)'],
      [2, 'a gate failed; nothing was measured'],
      [3, 'no verdict: too many runs were lost; the report is still written'],
    ],
    examples: [
      ['Which of the skills in skills/ takes which prompts:', 'skilltrigger matrix --skills skills --runs 2'],
      [
        'Leg 1 of 2 in one CI job (2/2 in another), then the legs merged into one matrix:',
        'skilltrigger matrix --skills skills --shard 1/2',
      ],
    ],
  },
} as const satisfies Record<string, CommandHelp>;

export type CommandName = keyof typeof COMMAND_HELP;

export const COMMAND_NAMES = Object.keys(COMMAND_HELP) as CommandName[];

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

/** The lines of the top-level usage after the commands' synopses (the README's command list ends with them). */
const GENERAL_LINES = [
  'skilltrigger <command> --help    # or: skilltrigger help <command>',
  'skilltrigger --version           # or: -v',
];

/**
 * The command list as the README's "Commands" block shows it: every command's full synopsis (from
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
export const USAGE = `skilltrigger — measure how often a skill description makes Claude load the skill

Usage:
${commandList()
  .map((line) => `  ${line}`)
  .join('\n')}

Commands:
${COMMAND_NAMES.map((n) => `  ${n.padEnd(10)}${COMMAND_HELP[n].summary}`).join('\n')}

Every option of a command: skilltrigger <command> --help (or skilltrigger help <command>).
Exit codes: 0 a verdict, 1 usage or input error, 2 a failed gate, 3 no verdict.`;
