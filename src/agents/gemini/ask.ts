/**
 * One author call through `gemini` headless (`AgentLoopRuntime.ask`, src/agents/ask.ts): the user's
 * key and endpoint as a measured run takes them, in a fresh git project beside a throwaway home and
 * TMPDIR, bounded by a timeout, the answer read from `stream-json`. What the call offers the model,
 * as Gemini CLI 0.61.0 showed it, is in docs/gemini.md "An author call".
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Usage } from '../../outcome.js';
import type { AskResult, AskSettings } from '../agent.js';
import { askQuote } from '../ask.js';
import { runOneCall } from '../process/one-call.js';
import { createScratchProject } from '../process/stub-project.js';
import { geminiApiError, statusOfExit } from './decision.js';
import { type GeminiEvent, parseGeminiEvent } from './events.js';
import { GEMINI_DEFAULT_MODEL } from './facts.js';
import { type GeminiProvider, geminiEnv, geminiSettings } from './launch.js';
import { GEMINI_KEY_SOURCES, geminiProviderFrom } from './provider.js';

/**
 * The argv of an author call: headless with the JSON-lines stream, in the default approval mode
 * (not a measured run's yolo), the model always named (else the `auto` model's routing request
 * comes first), the prompt glued to `--prompt=` as a measured run's query is.
 */
export function geminiAskArgs(prompt: string, model: string): string[] {
  return ['--output-format', 'stream-json', '-m', model, `--prompt=${prompt}`];
}

/**
 * The author call's policy: every tool denied by a rule without an `argsPattern`, which takes each
 * out of the request's tool list, so the model is offered no tool at all and answers in text.
 */
export function geminiAskPolicy(): string {
  return [
    '# skilltrigger: an author call offers the model no tool.',
    '[[rule]]',
    'toolName = "*"',
    'decision = "deny"',
    'priority = 100',
    '',
  ].join('\n');
}

/** What the stream of an author call said: the model's text, the tokens, how it ended. */
class AskReading {
  private readonly chunks: string[] = [];
  usage?: Usage;
  status?: 'success' | 'error' | 'other';
  failure?: string;

  get answer(): string {
    return this.chunks.join('');
  }

  feed(event: GeminiEvent): void {
    if (event.type === 'message' && event.role === 'assistant') this.chunks.push(event.content);
    else if (event.type === 'error') this.failure = event.message;
    else if (event.type === 'result') {
      this.status = event.status;
      if (event.usage) this.usage = event.usage;
      if (event.status !== 'success') this.failure = event.errorMessage ?? this.failure ?? '';
    }
  }
}

/** The run's throwaway home: settings with no skills, and the no-tool policy. */
async function writeAskHome(home: string): Promise<void> {
  const folder = path.join(home, '.gemini');
  await mkdir(path.join(folder, 'policies'), { recursive: true });
  await writeFile(path.join(folder, 'settings.json'), geminiSettings({ skills: false }));
  await writeFile(path.join(folder, 'policies', 'skilltrigger.toml'), geminiAskPolicy());
}

export async function askGemini(prompt: string, settings: AskSettings): Promise<AskResult> {
  const chosen = geminiProviderFrom(settings.env, settings.model);
  // The runs' home is a throwaway one: a Google sign-in stored in ~/.gemini never reaches them.
  if ('missing' in chosen)
    return { kind: 'api-error', cause: 'auth', said: `no API key in ${GEMINI_KEY_SOURCES.join(' or ')}` };
  const provider: GeminiProvider = chosen.provider;
  const project = await createScratchProject();
  try {
    const base = path.dirname(project.dir);
    const folders = { home: path.join(base, 'home'), tmpDir: path.join(base, 'tmp') };
    for (const folder of Object.values(folders)) await mkdir(folder);
    await writeAskHome(folders.home);
    const reading = new AskReading();
    const end = await runOneCall(
      {
        bin: settings.bin,
        args: geminiAskArgs(prompt, provider.model ?? GEMINI_DEFAULT_MODEL),
        cwd: project.dir,
        env: geminiEnv(settings.env, folders, provider),
        timeoutMs: settings.timeoutMs,
        ...(settings.signal ? { signal: settings.signal } : {}),
      },
      (line) => reading.feed(parseGeminiEvent(line)),
    );
    if (end.stopped === 'abort') return { kind: 'interrupted' };
    if (end.exit.spawnFailed) return { kind: 'spawn-failed', reason: 'the executable could not be started' };
    // What gemini said is quoted to the terminal: never with the key, a path or a token in it.
    const quote = (text: string) =>
      askQuote(
        text,
        GEMINI_KEY_SOURCES.map((k) => settings.env[k]),
      );
    const exitStatus = end.stopped ? undefined : statusOfExit(end.exit.exitCode);
    if (reading.status === 'error' || (reading.status === undefined && exitStatus !== undefined)) {
      const outcome = geminiApiError(reading.failure ?? '', exitStatus);
      return {
        kind: 'api-error',
        cause: outcome.kind === 'error' ? outcome.cause : 'api',
        said: quote(reading.failure ?? ''),
      };
    }
    if (end.stopped === 'timeout') return { kind: 'timeout', seconds: Math.round(settings.timeoutMs / 1000) };
    if (reading.status === 'success' && reading.answer.trim() !== '')
      return { kind: 'answer', text: reading.answer, ...(reading.usage ? { usage: reading.usage } : {}) };
    return { kind: 'no-answer', said: quote(reading.failure ?? '') };
  } finally {
    await project.remove();
  }
}
