/** The help entries of the commands that measure nothing: compare, check, view and roster
 * (help.ts renders them). */
import { AGENT_IDS } from '../../agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../../agents/registry.js';
import {
  agentBinUsage,
  agentValues,
  type CommandHelp,
  DEFAULT_BIN,
  defaultBinOption,
  type OptionHelp,
  SHARED_OPTIONS as SHARED,
} from './options.js';

/** The agents a roster is read or checked on (`placesRoster`), from the registry; and those but the default. */
const ROSTER_IDS = AGENT_IDS.filter((id) => agentFacts(id).placesRoster);
const ROSTER_OTHERS = ROSTER_IDS.filter((id) => id !== DEFAULT_AGENT);

/** `claude or codex`: the roster's agents as a sentence names them. */
const rosterChoice = (): string => `${ROSTER_IDS.slice(0, -1).join(', ')} or ${ROSTER_IDS.at(-1)}`;

/** The executable option of each roster agent but the default (`--codex <path>`). */
const rosterBinOptions = (): OptionHelp[] =>
  ROSTER_OTHERS.map((id) => {
    const a = agentFacts(id);
    return {
      name: a.binOption,
      value: '<path>',
      text: `the ${a.bin} binary (default: $${a.binVariable}, else ${a.bin} on PATH)`,
    };
  });

export const COMPARE_HELP = {
  summary: 'compare two reports (baseline first), or the two sides of one paired report',
  usage: ['compare <a.json> [<b.json>] [--json] [--fail-on-regression]'],
  args: [
    {
      name: 'a.json',
      text: 'the baseline report (or, alone, a paired report from --baseline-description)',
    },
    { name: 'b.json', text: 'the candidate report' },
  ],
  options: [
    { name: 'json', text: 'print the comparison as versioned JSON instead of text' },
    {
      name: 'fail-on-regression',
      text: 'exit 2 when the comparison finds a regression (with several models or agents: on any of them), for a script or a git hook; the comparison is printed all the same',
    },
  ],
  exitCodes: [
    [0, 'the comparison was made, whatever its labels (without --fail-on-regression)'],
    [1, 'a usage or input error: a file that is not a report, or two reports with no query in common'],
    [2, 'with --fail-on-regression: a regression'],
  ],
  examples: [
    [
      'Yesterday against today:',
      'skilltrigger compare results/2026-05-01-handoff.json results/2026-05-02-handoff.json',
    ],
    ['A paired report, as JSON:', 'skilltrigger compare results/2026-05-02-handoff.json --json'],
  ],
} as const satisfies CommandHelp;

export const CHECK_HELP = {
  summary: 'validate SKILL.md files and eval sets without a model call',
  usage: [
    'check [--skill <dir>]... [--eval <file>]... [--claude <path>]',
    `    [--roster <file|dir> [--agent ${agentValues(ROSTER_IDS)}] [--model <id>] ${agentBinUsage(ROSTER_OTHERS)}]`,
  ],
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
    defaultBinOption(
      `the ${DEFAULT_BIN.bin} whose own reading of each SKILL.md is checked (a listing probe: no model call, no network); default ${DEFAULT_BIN.bin} on PATH or ${DEFAULT_BIN.variable}; without one, skilltrigger's emulation of it, said so`,
    ),
    {
      name: 'roster',
      value: '<file|dir>',
      text: 'say how the agent lists each skill among this crowd: whole, cut or name-only, its characters and share of the budget, and the room it would need to be listed whole (a roster file, or a folder of skill folders; docs/roster.md). No model call',
    },
    {
      name: 'model',
      value: '<id>',
      text: "with --roster: the model whose listing budget applies (default the CLI's own)",
    },
    {
      name: 'agent',
      value: '<id>',
      text: `with --roster: whose listing, ${rosterChoice()} (default: the roster file's agent, else ${DEFAULT_AGENT})`,
    },
    ...rosterBinOptions(),
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
} as const satisfies CommandHelp;

export const VIEW_HELP = {
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
} as const satisfies CommandHelp;

export const ROSTER_HELP = {
  summary: 'write the catalogue an agent lists here as a roster file (no model call)',
  usage: [
    `roster export [--agent ${agentValues(ROSTER_IDS)}] --out <roster.json> [--hash-names]`,
    `    [--model <id>] [--${SHARED.defaultBin.name} <path>] ${agentBinUsage(ROSTER_OTHERS)}`,
  ],
  args: [{ name: 'export', text: 'the only action: read what the agent lists and write it as a roster' }],
  options: [
    {
      name: 'agent',
      value: '<id>',
      text: "whose catalogue: claude (default: the user's ~/.claude skills and commands with their use records) or codex (~/.agents/skills)",
    },
    {
      name: 'out',
      value: '<file>',
      text: 'the roster file to write (required; replaced when it exists). It holds names and descriptions of what is installed: private by design (docs/roster.md)',
    },
    {
      name: 'hash-names',
      text: "replace each name by a hash of the same length and each description by its length: the budget's arithmetic kept, the words left out",
    },
    { name: 'model', value: '<id>', text: "the model the agent's listing is read for (default its own)" },
    SHARED.defaultBin,
    ...rosterBinOptions(),
  ],
  exitCodes: [
    [0, 'the roster was written'],
    [1, "a usage error, or the agent's listing could not be read"],
  ],
  examples: [
    ["Pin this laptop's Claude Code crowd:", 'skilltrigger roster export --out roster.json'],
    ["Codex's, names hashed:", 'skilltrigger roster export --agent codex --hash-names --out roster.json'],
  ],
} as const satisfies CommandHelp;
