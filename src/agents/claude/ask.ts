import type { AskResult, AskSettings } from '../agent.js';
import { classifyApiError } from '../api-error.js';
import { askQuote } from '../ask.js';
import { createScratchProject } from '../process/stub-project.js';
import { runClaudeCommand } from './command.js';
import { askArgs, claudeEnvironment } from './launch.js';
import { readRoundTrip } from './one-turn.js';

/**
 * One author call through the user's own `claude -p` (`AgentLoopRuntime.ask`, src/agents/ask.ts):
 * the same login, model and environment as a measured run, in a fresh temp project (no stub,
 * nothing of the user's folder), bounded by a timeout, one turn only.
 */
export async function askClaude(prompt: string, settings: AskSettings): Promise<AskResult> {
  const project = await createScratchProject();
  try {
    const result = await runClaudeCommand(settings.bin, askArgs(prompt, settings.model), {
      env: claudeEnvironment(settings.env, settings.maxRetries),
      cwd: project.dir,
      timeoutMs: settings.timeoutMs,
      ...(settings.signal ? { signal: settings.signal } : {}),
    });
    if (result.aborted) return { kind: 'interrupted' };
    if (result.spawnFailed) {
      return { kind: 'spawn-failed', reason: result.spawnError ?? 'the executable could not be started' };
    }
    const reading = readRoundTrip(result.stdout);
    // What claude said is quoted to the terminal: never with the key, a path or a token in it.
    const masked = (text: string) => askQuote(text, [settings.env.ANTHROPIC_API_KEY]);
    if (reading.apiError) {
      return {
        kind: 'api-error',
        cause: classifyApiError(reading.apiError),
        said: masked(reading.apiError.text ?? ''),
      };
    }
    if (result.timedOut) return { kind: 'timeout', seconds: Math.round(settings.timeoutMs / 1000) };
    if (reading.answer !== undefined)
      return { kind: 'answer', text: reading.answer, ...(reading.usage ? { usage: reading.usage } : {}) };
    return { kind: 'no-answer', said: masked(result.stderr) || masked(result.stdout) };
  } finally {
    await project.remove();
  }
}
