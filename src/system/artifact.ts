import { DefaultArtifactClient } from '@actions/artifact';
import { messageOf } from '../errors.js';
import { maskSecrets } from '../mask.js';

/**
 * The job's artifact store (the Actions results service, through `@actions/artifact`): the one
 * module that talks to it. Never throws: an upload that cannot happen — no runtime token or
 * results URL (not a GitHub-hosted job, an old runner, GHES), a token without the results scope,
 * a name taken, the service failing — comes back as a reason, for the caller to warn with.
 */

export type ArtifactUpload =
  | { ok: true; id: number; size: number }
  | {
      ok: false;
      /** False when the service is not there at all; true when it was tried and failed. */
      tried: boolean;
      reason: string;
    };

/** Why the artifact service cannot be reached from here, or undefined when it can be tried. */
export function artifactServiceMissing(env: NodeJS.ProcessEnv): string | undefined {
  const missing = ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL'].filter((name) => !env[name]);
  if (missing.length > 0) {
    return `${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set (the runner gives them to a job on GitHub Actions)`;
  }
  // The client refuses GitHub Enterprise Server (and says so in a warning of its own): decided here.
  let host = 'github.com';
  try {
    host = new URL(env.GITHUB_SERVER_URL || 'https://github.com').hostname.toLowerCase();
  } catch {
    return `GITHUB_SERVER_URL is not a URL`;
  }
  if (host !== 'github.com' && !host.endsWith('.ghe.com') && !host.endsWith('.localhost')) {
    return 'this is GitHub Enterprise Server, where @actions/artifact v2+ cannot upload';
  }
  return undefined;
}

/** Uploads `files` (under `root`, which becomes the artifact's top folder) as the artifact `name`. */
export async function uploadArtifact(
  name: string,
  files: readonly string[],
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ArtifactUpload> {
  const missing = artifactServiceMissing(env);
  if (missing !== undefined) return { ok: false, tried: false, reason: missing };
  try {
    const client = new DefaultArtifactClient();
    const { id, size } = await client.uploadArtifact(name, [...files], root);
    if (id === undefined) return { ok: false, tried: true, reason: 'the service gave the artifact no id' };
    return { ok: true, id, size: size ?? 0 };
  } catch (error) {
    const message = messageOf(error);
    return { ok: false, tried: true, reason: maskSecrets(message.split('\n')[0] ?? message) };
  }
}
