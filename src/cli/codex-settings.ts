import { codexDefaultModel } from '../agents/codex/launch.js';
import type { CodexSiblings } from '../agents/codex/listed.js';
import { codexProviderFrom } from '../agents/codex/provider.js';
import { readCodexVersion } from '../agents/codex/run.js';
import type { MeasureSettings } from '../measure/measure-settings.js';
import type { PreflightResult } from '../preflight/preflight.js';
import type { CliIo } from './output.js';

/**
 * What `run` hands the measurement for Codex, once its gates have passed: the executable, the
 * provider, the siblings Codex lists (`codexSiblings`, read once by `run`; one it leaves out is
 * said and dropped: it does not compete there), Codex's version for the report (read in a throwaway CODEX_HOME, docs/codex.md "What a
 * run writes"), and the model its runs send without `-m`, so they are priced (docs/codex.md
 * "The model").
 */
export async function codexSettings(
  codexBin: string,
  io: CliIo,
  preflight: PreflightResult,
  siblings: CodexSiblings,
): Promise<{ codex: NonNullable<MeasureSettings['codex']>; version?: string }> {
  const { installed, leftOut } = siblings;
  for (const { name, reason } of leftOut)
    io.stderr.write(
      `siblings: ${name} is not listed by Codex (${reason}), so it does not compete there; left out\n`,
    );
  const version = preflight.codex?.version ?? (await readCodexVersion(codexBin).catch(() => undefined));
  const defaultModel = codexDefaultModel(version);
  const codex = {
    bin: codexBin,
    // The auth gate has passed: the key is in the environment.
    provider: codexProviderFrom(io.env).provider,
    siblings: installed,
    ...(defaultModel ? { defaultModel } : {}),
  };
  return { codex, ...(version ? { version } : {}) };
}
