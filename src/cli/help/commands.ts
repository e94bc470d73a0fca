/**
 * The help texts, one per command, as data: `parse-options.ts` reads a command's options from the same
 * table, so an option cannot exist without its explanation; help.ts renders an entry as
 * `skilltrigger <command> --help` prints it. The entries live by kind of command (help-measure.ts,
 * help-author.ts, help-reports.ts); the options several commands explain alike, in help-options.ts.
 */

import { IMPROVE_HELP, INIT_HELP } from './author.js';
import { MATRIX_HELP, PREFLIGHT_HELP, RUN_HELP } from './measure.js';
import type { CommandHelp } from './options.js';
import { CHECK_HELP, COMPARE_HELP, ROSTER_HELP, VIEW_HELP } from './reports.js';

/** Why `--workers` is refused: runs never overlap towards the model (docs/design.md, "What one run is"). */
export const WORKERS_REFUSAL =
  'unknown option --workers: skilltrigger runs strictly one claude at a time. Parallel workers each install a stub with the same description, the model loads whichever it likes, and each worker counts only its own: ten workers measure about a tenth of the true rate. A detected run ends in seconds; to spend fewer runs, use --runs auto';

/** Every command, in the order the usage lists them. */
export const COMMAND_HELP = {
  run: RUN_HELP,
  preflight: PREFLIGHT_HELP,
  compare: COMPARE_HELP,
  check: CHECK_HELP,
  init: INIT_HELP,
  improve: IMPROVE_HELP,
  view: VIEW_HELP,
  matrix: MATRIX_HELP,
  roster: ROSTER_HELP,
} as const satisfies Record<string, CommandHelp>;

export type CommandName = keyof typeof COMMAND_HELP;

export const COMMAND_NAMES = Object.keys(COMMAND_HELP) as CommandName[];
