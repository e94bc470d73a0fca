import { noTokens } from '../../outcome.js';
import type { Agent } from '../agent.js';
import type { CodexProvider } from './launch.js';
import { runCodexMeasurement } from './run.js';
import type { CodexStubSpec } from './stub.js';

/**
 * Codex on the seam: its provider (the user's gateway, or the simulated model) comes from the
 * settings; `defaultModel` is what its version sends without `-m` (`codexDefaultModel`), when known;
 * `stubs` holds each side's skill as its SKILL.md holds it (the stub writer lists it as Codex does).
 * A request's `context` is resumed from a rollout (docs/context.md).
 */
export function codexAgent(
  bin: string,
  provider: CodexProvider,
  stubs: readonly CodexStubSpec[],
  defaultModel?: string,
): Agent {
  return {
    id: 'codex',
    run: async (request) => {
      const stub = stubs[request.side];
      if (!stub) throw new Error(`no Codex stub was given for side ${request.side}`);
      const model = request.model ?? provider.model ?? defaultModel;
      const result = await runCodexMeasurement({
        bin,
        query: request.query,
        stub,
        provider: { ...provider, ...(request.model ? { model: request.model } : {}) },
        timeoutMs: request.timeoutMs,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(request.context ? { context: request.context } : {}),
      });
      const { usage } = result;
      const silent = noTokens(usage);
      return {
        outcome: result.outcome,
        ...(result.loaded === undefined ? {} : { loaded: result.loaded }),
        ...(result.listing === undefined ? {} : { listing: result.listing }),
        usage,
        durationMs: result.durationMs,
        agent: 'codex',
        ...(model === undefined ? {} : { model }),
        ...(silent ? { usageUnreported: true as const } : {}),
      };
    },
  };
}
