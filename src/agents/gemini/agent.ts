/**
 * Gemini CLI on the agent seam (src/agents/agent.ts): every run cold, in its own project and
 * throwaway home, decided from its stream (docs/gemini.md). Its provider (the user's key and
 * endpoint, or the simulated model) comes from the environment; `stubs` holds each side's skill
 * as Gemini lists it.
 */
import { noTokens } from '../../outcome.js';
import type { Agent } from '../runs.js';
import { GEMINI_DEFAULT_MODEL } from './facts.js';
import type { GeminiProvider } from './launch.js';
import { runGeminiMeasurement } from './run.js';
import type { GeminiStubSpec } from './stub.js';

export function geminiAgent(
  bin: string,
  provider: GeminiProvider,
  stubs: readonly GeminiStubSpec[],
  baseEnv: NodeJS.ProcessEnv,
): Agent {
  return {
    id: 'gemini',
    run: async (request) => {
      const stub = stubs[request.side];
      if (!stub) throw new Error(`no Gemini stub was given for side ${request.side}`);
      const model = request.model ?? provider.model ?? GEMINI_DEFAULT_MODEL;
      const result = await runGeminiMeasurement({
        bin,
        query: request.query,
        stub,
        provider: { ...provider, model },
        timeoutMs: request.timeoutMs,
        baseEnv,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const { usage } = result;
      // Gemini reports tokens only in its final event: a run killed at its decision has none.
      const silent = noTokens(usage);
      return {
        outcome: result.outcome,
        ...(result.loaded === undefined ? {} : { loaded: result.loaded }),
        usage,
        durationMs: result.durationMs,
        agent: 'gemini',
        model: result.model ?? model,
        ...(silent ? { usageUnreported: true as const } : {}),
      };
    },
  };
}
