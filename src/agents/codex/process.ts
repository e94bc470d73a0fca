/**
 * A running `codex exec --json`: the shared group spawner (process/group.ts) under Codex's names.
 * Started in its own process group with stdin on /dev/null (an open stdin makes Codex wait for
 * more prompt: "Reading additional input from stdin..."), its stdout read line by line, and a kill
 * that reaches the whole group (the npm launcher, the native binary, the commands the model
 * started). docs/codex.md "Launch" and "What a kill leaves".
 */
export {
  type GroupExit as CodexExit,
  type GroupProcess as CodexProcess,
  type GroupSpawnOptions as CodexSpawnOptions,
  killAllAgentGroups as killAllCodexGroups,
  resolveAgentBin as resolveCodexBin,
  spawnInGroup as spawnCodex,
} from '../process/group.js';
