import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CODEX_CONFIG_FILE, type CodexProvider, codexConfigToml } from './launch.js';

/**
 * Writes the run's provider into its throwaway CODEX_HOME (codexConfigToml), readable by the
 * user alone: the endpoint stays off the command line (docs/security.md "Credentials in URLs").
 */
export async function writeCodexConfig(codexHome: string, provider: CodexProvider): Promise<void> {
  await writeFile(path.join(codexHome, CODEX_CONFIG_FILE), codexConfigToml(provider), { mode: 0o600 });
}
