/**
 * Claude Code's warm standbys (docs/speed.md, "A warm standby"): when the next runs' claudes are
 * started during a run, and how many this machine holds. The pool that keeps them is every
 * agent's (src/agents/process/standby-pool.ts).
 */

import os from 'node:os';

/**
 * How long after its `requesting` status claude 2.1.328 sends its request: 35–45 ms measured alone
 * (docs/speed.md, "When a standby starts"). A standby started later than the status by this much
 * starts once the request is out, not while the prompted claude still builds it.
 */
export const REQUEST_OUT_MS = 50;

/**
 * How soon after its request a model must answer for the next standby to be started with the run's
 * prompt rather than once the request is out (docs/speed.md, "When a standby starts"). A claude
 * started beside one that was just prompted slows that run's way to its request (~30–40 ms
 * measured); started once the request is out, it has only the rest of the model's wait to start up
 * in (~300 ms needed here), which a quick answer does not give it. The two costs meet near 300 ms.
 */
export const QUICK_ANSWER_MS = 300;

/**
 * When the next runs' standbys are started during a run: with its prompt (`prompt`), or once its
 * request is out (`asked`), judged by how long the model took over the last run that asked it
 * (from the request going out to the decision). With no such run yet, with the prompt.
 */
export function standbyStartsAt(lastWaitMs: number | undefined): 'prompt' | 'asked' {
  return lastWaitMs !== undefined && lastWaitMs >= QUICK_ANSWER_MS ? 'asked' : 'prompt';
}

/** What one waiting claude holds resident (~210 MB measured with `/usr/bin/time`, docs/speed.md). */
export const STANDBY_MEMORY_BYTES = 210 * 1024 * 1024;

/**
 * The default number of standbys (docs/speed.md, "How many standbys"): one hides the start-up
 * whenever a run lasts longer than a start-up, which a real model's answer does; a second helps
 * only an instantly answering model, and only with cores to spare for two start-ups beside the
 * running claude. Bounded by the memory free for them beside the running claude.
 */
export function defaultStandbyCount(cores: number, freeBytes: number): number {
  const byCores = cores >= 4 ? 2 : 1;
  const byMemory = Math.floor(freeBytes / STANDBY_MEMORY_BYTES) - 1;
  return Math.max(0, Math.min(byCores, byMemory));
}

let machineDefault: number | undefined;

/**
 * This machine's default, decided once a process: the first standby is started before the gates
 * and the loop takes it only if it keeps standbys too, so both must read the same count even when
 * free memory moves in between.
 */
export function machineStandbyCount(): number {
  machineDefault ??= defaultStandbyCount(os.availableParallelism(), os.freemem());
  return machineDefault;
}
