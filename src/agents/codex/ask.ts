/**
 * One author call through `codex exec` (`AgentLoopRuntime.ask`, src/agents/ask.ts): the user's
 * provider and key as a measured run takes them, in a fresh git project beside a throwaway
 * CODEX_HOME and TMPDIR, bounded by a timeout, the answer read from `--json`. What the call offers
 * the model, as codex-cli 0.169.0 showed it, is in docs/codex.md "An author call".
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Usage } from '../../outcome.js';
import type { AskResult, AskSettings } from '../agent.js';
import { askQuote } from '../ask.js';
import { runOneCall } from '../process/one-call.js';
import { createScratchProject } from '../process/stub-project.js';
import { writeCodexConfig } from './config-file.js';
import { codexApiError } from './decision.js';
import { type CodexEvent, parseCodexEvent } from './events.js';
import { type CodexProvider, codexEnv } from './launch.js';
import { killProcessesNaming } from './leftovers.js';
import { CODEX_KEY_SOURCES, codexProviderFrom } from './provider.js';

/**
 * The argv of an author call: `exec --json` as a measured run, plus no skill listed (neither the
 * skills section nor the system skills), no shell tool (`exec_command`, `write_stdin`), no session
 * file (`--ephemeral`); commands and patches would meet the read-only sandbox. The prompt after `--`.
 */
export function codexAskArgs(prompt: string, provider: CodexProvider): string[] {
  return [
    'exec',
    '--json',
    '--ephemeral',
    '--ignore-rules',
    '--disable',
    'plugins',
    '--disable',
    'shell_tool',
    '-c',
    'analytics.enabled=false',
    '-c',
    'skills.include_instructions=false',
    '-c',
    'skills.bundled.enabled=false',
    '--sandbox',
    'read-only',
    '--color',
    'never',
    ...(provider.model ? ['-m', provider.model] : []),
    '--',
    prompt,
  ];
}

/** What the `--json` stream of an author call said: the last message, the tokens, the failure. */
class AskReading {
  answer?: string;
  usage?: Usage;
  completed = false;
  failure?: string;
  lastError?: string;

  feed(event: CodexEvent): void {
    switch (event.type) {
      case 'agent-message':
        // Commentary before a tool call is a message too: the turn's last one is its answer.
        this.answer = event.text;
        return;
      case 'turn-completed':
        this.completed = true;
        if (event.usage) this.usage = event.usage;
        return;
      case 'turn-failed':
        this.failure = event.message || this.lastError || '';
        return;
      case 'error':
        this.lastError = event.message;
        return;
      default:
        return;
    }
  }
}

export async function askCodex(prompt: string, settings: AskSettings): Promise<AskResult> {
  const chosen = codexProviderFrom(settings.env, settings.model);
  // The runs' CODEX_HOME is a throwaway one: a login stored by `codex login` never reaches them.
  if ('missing' in chosen)
    return { kind: 'api-error', cause: 'auth', said: `no API key in ${CODEX_KEY_SOURCES.join(' or ')}` };
  const provider: CodexProvider = { ...chosen.provider, retries: settings.maxRetries };
  const project = await createScratchProject();
  const base = path.dirname(project.dir);
  try {
    const folders = { codexHome: path.join(base, 'codex-home'), tmpDir: path.join(base, 'tmp') };
    for (const folder of Object.values(folders)) await mkdir(folder);
    await writeCodexConfig(folders.codexHome, provider);
    const reading = new AskReading();
    const end = await runOneCall(
      {
        bin: settings.bin,
        args: codexAskArgs(prompt, provider),
        cwd: project.dir,
        env: codexEnv(settings.env, folders, provider),
        timeoutMs: settings.timeoutMs,
        ...(settings.signal ? { signal: settings.signal } : {}),
      },
      (line) => reading.feed(parseCodexEvent(line)),
    );
    if (end.stopped === 'abort') return { kind: 'interrupted' };
    if (end.exit.spawnFailed) return { kind: 'spawn-failed', reason: 'the executable could not be started' };
    // What codex said is quoted to the terminal: never with the key, a path or a token in it.
    const quote = (text: string) =>
      askQuote(
        text,
        CODEX_KEY_SOURCES.map((k) => settings.env[k]),
      );
    if (reading.failure !== undefined) {
      const outcome = codexApiError(reading.failure);
      return {
        kind: 'api-error',
        cause: outcome.kind === 'error' ? outcome.cause : 'api',
        said: quote(reading.failure),
      };
    }
    if (end.stopped === 'timeout') return { kind: 'timeout', seconds: Math.round(settings.timeoutMs / 1000) };
    if (reading.completed && reading.answer !== undefined)
      return { kind: 'answer', text: reading.answer, ...(reading.usage ? { usage: reading.usage } : {}) };
    return { kind: 'no-answer', said: quote(reading.lastError ?? '') };
  } finally {
    // A process Codex started in a session of its own (its shell snapshot) names the folder.
    await killProcessesNaming(base);
    await project.remove();
  }
}
