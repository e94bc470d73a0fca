/**
 * Every fault the suite injects, as data. The tests under __tests__/faults/ look their case up here
 * (`faultCase(id)`) and assert exactly the outcome, exit code and report this table states, and
 * docs/faults.md is rendered from this table (faults-doc.test.ts fails when it is out of date, and
 * when a case has no test naming it). So a row of the doc cannot claim what no test checks.
 */

export type FaultLayer =
  /** One run through `runOnce`: the real claude binary (or a stand-in script) and the simulated model. */
  | 'run'
  /** `skilltrigger run` as a user runs it: exit code, stderr, report files. */
  | 'cli'
  /** The report writer alone, on a filesystem that refuses it. */
  | 'report-write'
  /** The run loop and report, with a stand-in claude process (no binary needed for the fault). */
  | 'loop'
  /** The claude stream reader, replaying lines the real CLI printed. */
  | 'stream'
  /** A hostile query: tool calls the model makes, run by the real claude (docs/security.md). */
  | 'hostile'
  /**
   * Hostile input from outside the model: a URL, a link, an edited report, a huge frontmatter, given
   * to the CLI or the Action as a process (docs/security.md).
   */
  | 'hostile-input';

export interface FaultCase {
  id: string;
  layer: FaultLayer;
  /** The fault, in a user's words, as docs/faults.md lists it. */
  fault: string;
  /** How the suite produces it. */
  injected: string;
  /** What skilltrigger makes of it: the run's outcome (`error:<cause>`), or the CLI's exit and report. */
  outcome: string;
}

export const FAULT_CASES: readonly FaultCase[] = [
  // The API answers with an error status. CLAUDE_CODE_MAX_RETRIES=0 (skilltrigger's --max-retries 0).
  {
    id: 'api-400',
    layer: 'run',
    fault: 'API error 400 naming the model',
    injected: 'simulated model: 400 invalid_request_error "model: …" (the CLI re-sends it 5 times)',
    outcome: 'error:model (status 400)',
  },
  {
    id: 'api-401',
    layer: 'run',
    fault: 'API error 401',
    injected: 'simulated model: 401 authentication_error',
    outcome: 'error:auth (status 401)',
  },
  {
    id: 'api-403',
    layer: 'run',
    fault: 'API error 403',
    injected: 'simulated model: 403 permission_error',
    outcome: 'error:auth (status 403)',
  },
  {
    id: 'api-404',
    layer: 'run',
    fault: 'API error 404',
    injected: 'simulated model: 404 not_found_error (the CLI retries without streaming)',
    outcome: 'error:model (status 404)',
  },
  {
    id: 'api-429',
    layer: 'run',
    fault: 'API error 429',
    injected: 'simulated model: 429 rate_limit_error',
    outcome: 'error:rate-limit (status 429)',
  },
  {
    id: 'api-500',
    layer: 'run',
    fault: 'API error 500',
    injected: 'simulated model: 500 api_error',
    outcome: 'error:api (status 500)',
  },
  {
    id: 'api-529',
    layer: 'run',
    fault: 'API error 529',
    injected: 'simulated model: 529 overloaded_error',
    outcome: 'error:overloaded (status 529)',
  },
  // The connection misbehaves.
  {
    id: 'hang-before-headers',
    layer: 'run',
    fault: 'hang before headers',
    injected: 'simulated model reads the request and never answers; --timeout 4 s',
    outcome: 'timeout (claude stopped at 4 s)',
  },
  {
    id: 'stall-after-headers',
    layer: 'run',
    fault: 'stall after headers',
    injected: 'simulated model sends 200 and message_start, then nothing; --timeout 4 s',
    outcome: 'timeout (claude stopped at 4 s)',
  },
  {
    id: 'cut-stream',
    layer: 'run',
    fault: 'cut stream',
    injected:
      'simulated model destroys the socket inside a Skill block (a phantom Skill start), also on the fallback',
    outcome: 'error:network (never triggered from the phantom)',
  },
  {
    id: 'cut-after-text-resumed',
    layer: 'run',
    fault: 'cut stream after a complete text block, then resumed',
    injected:
      'simulated model: text block, then the socket dies inside the Skill block; the resume turn answers text + Skill',
    outcome: 'triggered (was not-triggered before the fix)',
  },
  {
    id: 'cut-after-text-replay',
    layer: 'stream',
    fault: 'cut after text, resumed with text / cut every time',
    injected:
      'stream-json recorded from the real CLI (the cut-after-text fixtures under fixtures/faults), replayed',
    outcome: 'not-triggered / error:network (a cut message is never read as a miss)',
  },
  {
    id: 'reset-socket',
    layer: 'run',
    fault: 'reset socket',
    injected: 'simulated model destroys the socket without a response',
    outcome: 'error:network',
  },
  // The claude process misbehaves.
  {
    id: 'sigkill-mid-run',
    layer: 'run',
    fault: 'claude killed with SIGKILL mid-run',
    injected:
      '--claude wrapper that records its pid and execs claude; the test sends SIGKILL while the API hangs',
    outcome: 'error:crash; temp project removed',
  },
  {
    id: 'sigkill-leftover-group',
    layer: 'run',
    fault: 'a process claude started outlives a SIGKILLed claude',
    injected: 'the same wrapper leaves a `sleep` in claude’s process group',
    outcome: 'the `sleep` is killed with the group when the run is stopped',
  },
  {
    id: 'claude-missing',
    layer: 'run',
    fault: 'claude missing',
    injected: '--claude points at a path that does not exist',
    outcome: 'error:cli-missing',
  },
  {
    id: 'claude-not-executable',
    layer: 'run',
    fault: 'claude not executable',
    injected: '--claude points at a file without the x bit',
    outcome: 'error:cli-missing',
  },
  {
    id: 'crash-exit-1',
    layer: 'run',
    fault: 'crash on start (exit 1)',
    injected: '--claude script that exits 1 at once',
    outcome: 'error:crash',
  },
  {
    id: 'crash-segfault',
    layer: 'run',
    fault: 'crash on start (SIGSEGV)',
    injected: '--claude script that kills itself with SIGSEGV',
    outcome: 'error:crash',
  },
  {
    id: 'silent-exit-0',
    layer: 'run',
    fault: 'claude exits 0 without a word',
    injected: '--claude script that exits 0 with no output',
    outcome: 'error:no-decision',
  },
  {
    id: 'garbage-output',
    layer: 'run',
    fault: 'claude prints something that is not stream-json',
    injected: '--claude script printing a text line and half a JSON object, exit 0',
    outcome: 'error:no-decision',
  },
  {
    id: 'slow-start-timeout',
    layer: 'run',
    fault: 'slow start that crosses the timeout',
    injected: '--claude wrapper that sleeps 30 s before exec; --timeout 1.5 s',
    outcome: 'timeout; the sleeping wrapper is killed with its group',
  },
  // The machine.
  {
    id: 'temp-folder-fails-mid-run',
    layer: 'loop',
    fault: 'the temp folder stops taking projects mid-run (full disk, removed TMPDIR)',
    injected: 'a cleanup job removes the temp root while the first run is going',
    outcome:
      'the loop stops and keeps the first run; the report says no verdict (stopped before every planned run finished)',
  },
  {
    id: 'temp-folder-fails-at-start',
    layer: 'loop',
    fault: 'the temp folder refuses the first project',
    injected: 'the temp root is a regular file from the start',
    outcome: 'StubProjectError, exit 1: names the folder and the OS error (ENOTDIR); nothing measured',
  },
  // The whole CLI.
  {
    id: 'cli-api-error-no-verdict',
    layer: 'cli',
    fault: 'an API error in a short run',
    injected: '2 queries × 1 run, one answers 500',
    outcome:
      'exit 3; report written (no verdict, query in lostQueries, error:api counted apart); no temp project left',
  },
  {
    id: 'cli-claude-missing',
    layer: 'cli',
    fault: 'claude missing, whole CLI',
    injected: '--claude /nonexistent',
    outcome: 'exit 2 (cli gate); nothing measured, no report; no temp project left',
  },
  {
    id: 'cli-report-enotdir',
    layer: 'cli',
    fault: 'disk refuses the report write (path through a file), after the up-front check passed',
    injected: '--out …/later-a-file/results, where later-a-file becomes a regular file while the runs go',
    outcome:
      'exit 1; stderr names the folder, ENOTDIR and the fallback file; the complete report is in a new skilltrigger-unsaved folder under $TMPDIR',
  },
  {
    id: 'cli-sigterm',
    layer: 'cli',
    fault: 'SIGTERM to skilltrigger mid-run',
    injected: 'SIGTERM while the second run hangs',
    outcome:
      'exit 3; partial report (interrupted, no verdict, the first run kept); claude group gone; no temp project left',
  },
  {
    id: 'cli-epipe-stdout',
    layer: 'cli',
    fault: 'stdout closed (`run … | head -1`, `| true`)',
    injected: 'the reader of stdout closes its end before the first line',
    outcome:
      'no EPIPE stack trace; every run measured, report written, exit as measured (0); no temp project, no process left',
  },
  {
    id: 'cli-epipe-stderr',
    layer: 'cli',
    fault: 'stderr closed (a closed pipe for the progress lines)',
    injected: 'the reader of stderr closes its end before the first gate line',
    outcome: 'every run measured, report written, headline on stdout, exit as measured (0)',
  },
  {
    id: 'cli-sighup-group',
    layer: 'cli',
    fault: 'SIGHUP: the terminal or SSH session closes mid-run',
    injected:
      'skilltrigger in its own process group; stdout and stderr closed, then SIGHUP to the group while the second run hangs',
    outcome:
      'exit 3 (not 129); partial report (interrupted, no verdict, the first run kept); claude group gone; no temp project left',
  },
  {
    id: 'cli-double-sigint',
    layer: 'cli',
    fault: 'Ctrl-C, twice, while a claude that ignores SIGTERM runs',
    injected:
      '--claude wrapper that traps TERM and stays on in a TERM-proof `sleep`; SIGINT while the second run hangs, SIGINT again if skilltrigger is still there',
    outcome:
      'a measured run is SIGKILLed with its whole group at the first SIGINT (a second one SIGKILLs whatever claude is left); exit 3 with the partial report (was: exit 130, wrapper left running); no temp project, no process of the group left',
  },
  {
    id: 'cli-sigint-gates',
    layer: 'cli',
    fault: 'Ctrl-C during the gates',
    injected: 'the round-trip request hangs; SIGINT once it reached the simulated model',
    outcome:
      'exit 3, "interrupted during the gates; nothing was measured"; no report, the gates’ scratch project and claude group gone',
  },
  {
    id: 'cli-echoed-key',
    layer: 'cli',
    fault: 'an upstream echoes the API key in an error body (an `sk-ant-` key)',
    injected: 'simulated model: the round-trip answers 500 with the x-api-key it received in the message',
    outcome: 'exit 2; the gate line quotes the error with the key as `***`; the key in no output or file',
  },
  {
    id: 'cli-echoed-gateway-key',
    layer: 'cli',
    fault: 'the same, with a gateway key that does not look like an Anthropic key',
    injected: 'ANTHROPIC_API_KEY=gw-…; the round-trip answers 500 echoing it',
    outcome: 'exit 2; masked as `***` (the value of ANTHROPIC_API_KEY is masked, whatever its shape)',
  },
  {
    id: 'cli-relative-claude',
    layer: 'cli',
    fault: 'a relative --claude path',
    injected: '--claude ./node_modules/.bin/claude, run from the repository root',
    outcome: 'resolved against the working directory: gates pass, both runs measured, exit 0 (was: ENOENT)',
  },
  {
    id: 'cli-out-read-only',
    layer: 'cli',
    fault: '--out on a folder that cannot be written (no permission, even for root)',
    injected:
      '--out inside a tmpfs mounted read-only in a private mount namespace (unshare -m); skipped where unavailable',
    outcome:
      'exit 1 before the gates: "cannot write the report to …: EROFS", with the fix; claude never started',
  },
  {
    id: 'cli-tmpdir-full',
    layer: 'cli',
    fault: 'a full temp folder ($TMPDIR) before a run',
    injected:
      'TMPDIR on a 64 KiB tmpfs filled by dd, in a private mount namespace (unshare -m); skipped where unavailable',
    outcome:
      'exit 1 before the gates: "the temp folder TMPDIR=… is full (0 KiB free)", with the fix; claude never started, no report folder',
  },
  {
    id: 'check-tmpdir-full',
    layer: 'cli',
    fault: '`check` with a full temp folder (its listing probe writes there)',
    injected: 'the same full tmpfs; `check --skill` with the real claude',
    outcome:
      'exit 1: "the temp folder TMPDIR=… is full", with the fix (was: "unexpected error: Error: ENOSPC" and a stack trace)',
  },
  {
    id: 'cli-out-in-skill',
    layer: 'cli',
    fault: '--out is the skill folder, or inside it',
    injected: '`run --out <skill dir>`, then `--out <skill dir>/results`',
    outcome:
      'a warning before the gates: the reports would sit beside SKILL.md and ship with the skill, with the fix (was: nothing said)',
  },
  {
    id: 'init-interrupted',
    layer: 'cli',
    fault: 'SIGTERM to `init` during the drafting call',
    injected: 'the simulated model hangs on the drafting prompt; SIGTERM once it arrived',
    outcome:
      'exit 3, "init: interrupted; no draft was written", no advice to run preflight; init --help lists exit 3 (was: exit 3 unlisted, "Fix: run skilltrigger preflight")',
  },
  {
    id: 'cli-baseline-source',
    layer: 'cli',
    fault: 'which text a paired run measured as the baseline',
    injected: '`run --baseline-description old.txt` naming an existing file',
    outcome:
      'stderr says "baseline: the text of the file … (N bytes)"; the report records baseline.description.from = file and candidate = skill, never the path',
  },
  {
    id: 'check-slash-query',
    layer: 'cli',
    fault: 'a prompt that starts with `/<skill name>` (Claude Code expands it itself)',
    injected: '`skilltrigger check` on an eval set whose positive is "/handoff and then stop"',
    outcome:
      'exit 1; the entry is named, with the fix "drop the leading slash" (`run` refuses it the same way)',
  },
  {
    id: 'home-unchanged',
    layer: 'cli',
    fault: 'a measurement in the user’s own HOME (settings, CLAUDE.md, another project’s history)',
    injected:
      'the real claude with a populated HOME and a TMPDIR of the test; `preflight`, `run`, `matrix` (2 skills), `improve` (its rewrite call included) and `roster export` of both agents (a crowd of skills, a command and a use record in that HOME), each HOME and TMPDIR compared file by file before and after',
    outcome:
      'HOME unchanged apart from the plugin store the CLI rewrites at every start (docs/home.md); no `~/.claude/projects/` folder of a temp project, nothing left in the TMPDIR (was: one `~/.claude/projects/-tmp-skilltrigger-…` folder a run)',
  },
  {
    id: 'sigkill-sweep',
    layer: 'cli',
    fault: 'SIGKILL to skilltrigger mid-run (a kill cannot be caught)',
    injected: 'SIGKILL to `skilltrigger run` while a measured run hangs, then `skilltrigger preflight`',
    outcome:
      'the kill leaves the temp project (its owner file names the dead pid) and its claude group; the next command ends that group and removes the dead owner’s temp folders, and no `~/.claude/projects/` folder of ours stays (was: claude orphaned, two `skilltrigger-*` folders left)',
  },
  {
    id: 'run-e2big',
    layer: 'run',
    fault: 'a prompt too long for the argv (E2BIG), past the loader',
    injected: 'runOnce with a 200 KiB query; the spawn fails with E2BIG',
    outcome:
      'error:crash, never error:cli-missing (the loader refuses such a query up front: query-too-long)',
  },
  {
    id: 'report-write-erofs',
    layer: 'report-write',
    fault: 'disk refuses the report write (read-only filesystem)',
    injected:
      'a tmpfs mounted read-only in a private mount namespace (unshare -m); skipped where unavailable',
    outcome: 'ReportWriteError EROFS, exit 1; report saved in the fallback folder',
  },
  {
    id: 'report-write-enospc',
    layer: 'report-write',
    fault: 'disk refuses the report write (full)',
    injected: 'a 4 KiB tmpfs in a private mount namespace; skipped where unavailable',
    outcome: 'ReportWriteError ENOSPC, exit 1; report saved in the fallback folder, no partial file left',
  },
  {
    id: 'report-write-no-fallback',
    layer: 'report-write',
    fault: 'the report folder and the fallback folder both refuse',
    injected: 'both paths run through a regular file (ENOTDIR)',
    outcome: 'ReportWriteError, exit 1; the full report JSON is in the message (stderr)',
  },
  {
    id: 'report-write-limit-twice',
    layer: 'report-write',
    fault: 'the file-size limit refuses the report in its folder and in the fallback folder',
    injected: 'every write of a report file fails with EFBIG (the link that claims its name refuses)',
    outcome:
      'ReportWriteError EFBIG, exit 1; the full report JSON is in the message, and no empty skilltrigger-unsaved-* folder is left',
  },
  // A hostile query (docs/security.md). Every URL is a loopback listener; HTTPS_PROXY points at a
  // loopback proxy that refuses, so nothing the CLI tries can leave 127.0.0.1.
  {
    id: 'hostile-permissive-settings',
    layer: 'hostile',
    fault: 'hostile query, SPEC flags only, user settings that allow everything',
    injected:
      'the model calls Bash env, Bash curl with $ANTHROPIC_API_KEY, Read and Write outside the project, then WebFetch with the key it read',
    outcome:
      'all of it runs: the key is in the tool result sent to the model, both listeners receive it, the file outside is written',
  },
  {
    id: 'hostile-clean-home',
    layer: 'hostile',
    fault: 'hostile query, SPEC flags only, no user settings',
    injected: 'the same tool calls, with an empty HOME',
    outcome: 'denied by the CLI’s own default mode: no listener hit, no file, no key in the stream',
  },
  {
    id: 'hostile-dont-ask',
    layer: 'hostile',
    fault: 'hostile query with skilltrigger’s run settings (--permission-mode dontAsk)',
    injected: 'the same tool calls and the same permissive user settings',
    outcome:
      'every call denied: no listener hit, no file, no key in the stream; the model gets the same tools and prompt as in a default-mode run',
  },
  // Hostile input from outside the model (docs/security.md).
  {
    id: 'hostile-url-credentials',
    layer: 'hostile-input',
    fault: 'a gateway URL with user:password@ and ?api-key= in OPENAI_BASE_URL',
    injected:
      '`preflight --agent codex` with a stand-in codex that records its argv and its CODEX_HOME/config.toml',
    outcome:
      'printed with *** for the password and the key; the URL is never on codex’s command line, only in the run’s config.toml (mode 0600)',
  },
  {
    id: 'hostile-gate-quote',
    layer: 'hostile-input',
    fault: 'the agent’s error output, quoted by a failing gate, holds a private path and a token',
    injected:
      'the Action (in this process) on a pull request with a claude whose `--version` prints such a line and exits 1',
    outcome:
      'the cli gate fails (exit 2) quoting the line with `<path>` and `***` in the log, the annotations, the job summary and the PR comment',
  },
  {
    id: 'hostile-skill-link-apply',
    layer: 'hostile-input',
    fault: 'improve --apply on a SKILL.md that is a symbolic link to a shared file',
    injected: '`improve --apply` of a consistent improve report, the skill folder’s SKILL.md a link',
    outcome:
      'written through the link: the shared file holds the winner, the link stays a link, and the output names the file written',
  },
  {
    id: 'hostile-siblings-link-out',
    layer: 'hostile-input',
    fault: 'a --siblings folder holding a symbolic link to a skill outside it, and one to /',
    injected:
      '`run --siblings <dir> --dry-run`; the same walk serves `matrix --skills` and the Action’s siblings',
    outcome:
      'neither link is followed: the outside skill is no sibling, a warning names each link left out, and the walk stays in the folder',
  },
  {
    id: 'hostile-opposite-twins',
    layer: 'hostile-input',
    fault: 'two prompts that differ only in case, spacing and a zero-width space, with opposite labels',
    injected: '`check --skill <dir> --eval <file>`',
    outcome: 'a warning naming both ids (same-text-opposite-labels), exit 0',
  },
];

export function faultCase(id: string): FaultCase {
  const found = FAULT_CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no fault case "${id}" in __tests__/faults/cases.ts`);
  return found;
}

/** The test title for a case: its id first, so the doc test can find the test that covers it. */
export function faultTitle(id: string): string {
  const c = faultCase(id);
  return `${c.id}: ${c.fault} → ${c.outcome}`;
}

/**
 * Faults around the Action rather than the measurement: the GitHub API, the event, the runner
 * cancelling the job. Each runs the bundled Action (`node dist/index.js`) in
 * __tests__/action/action.e2e.test.ts, whose test names the case id; the table `action-fault-table`
 * of docs/faults.md is rendered from this list (__tests__/action/faults-doc.test.ts). Kept apart
 * from FAULT_CASES, whose coverage check reads only __tests__/faults/.
 */
export const ACTION_FAULT_CASES: readonly Omit<FaultCase, 'layer'>[] = [
  {
    id: 'action-comment-403',
    fault: 'GitHub API 403 on the PR comment (a fork-like read-only token)',
    injected:
      'GitHub API fake: a read-only token, writes answer 403 "Resource not accessible by integration"',
    outcome:
      'no comment; a warning names the 403 and the `pull-requests: write` permission; the result in the job summary and outputs; exit as measured (0)',
  },
  {
    id: 'action-comment-422',
    fault: 'GitHub API 422 on an oversize comment body',
    injected: 'GitHub API fake: create-comment answers 422 "Body is too long (maximum is 65536 characters)"',
    outcome:
      'no comment; a warning says GitHub found it too long; the result in the job summary and outputs; exit as measured (0)',
  },
  {
    id: 'action-comment-5xx-retry',
    fault: 'GitHub API 502, then success',
    injected: 'GitHub API fake: create-comment answers 502 once',
    outcome: 'retried after re-reading the comments; one comment posted; no warning; exit 0',
  },
  {
    id: 'action-pr-target-fork',
    fault: 'A fork’s pull request under `pull_request_target`',
    injected:
      '`pull_request_target` event whose head repository is a fork; `allow-pull-request-target` unset',
    outcome:
      'refused before anything runs: the failure says why and how to allow it; no claude started, no model request, no comment; exit 1',
  },
  {
    id: 'action-pr-target-allowed',
    fault: 'The same, with `allow-pull-request-target: true`',
    injected: 'as above, the input set; the round-trip gate answers 401',
    outcome: 'not refused: the run goes on to the gates (here: gate failed, exit 2)',
  },
  {
    id: 'action-cancel-sigterm',
    fault: 'Job cancelled (SIGTERM) mid-measurement on a push to main',
    injected: 'SIGTERM to `node dist/index.js` after the first query’s progress line',
    outcome:
      'the claude run stops; report marked interrupted (no verdict); no baseline reserved or saved; temp projects removed; exit 3',
  },
  {
    id: 'action-cancel-sigint',
    fault: 'Job cancelled (SIGINT) mid-measurement on a push to main',
    injected: 'SIGINT to `node dist/index.js` after the first query’s progress line',
    outcome: 'as SIGTERM: no baseline saved, temp projects removed, exit 3',
  },
  {
    id: 'action-cancel-gates',
    fault: 'Job cancelled (SIGTERM) during the gates on a pull request',
    injected: 'SIGTERM to `node dist/index.js` while the round-trip gate’s request is held at the model',
    outcome:
      'the gates stop; the first run’s claude, waiting since before the gates, is killed and its temp project removed; nothing measured; exit 3',
  },
];
