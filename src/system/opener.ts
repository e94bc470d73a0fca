import { spawn } from 'node:child_process';

/**
 * Opens a file with the platform's own opener (`xdg-open`, `open`, `start`), detached: the opener
 * (and the browser it starts) outlives skilltrigger, which does not wait for it.
 */

export interface OpenerCommand {
  file: string;
  args: string[];
  /** Windows: `cmd`'s own quoting, so a path with spaces stays one argument. */
  verbatim: boolean;
}

/** The command that opens `target` on `platform`. */
export function openerCommand(platform: NodeJS.Platform, target: string): OpenerCommand {
  switch (platform) {
    case 'darwin':
      return { file: 'open', args: [target], verbatim: false };
    case 'win32':
      // `start`'s first quoted argument is a window title, hence the empty one.
      return {
        file: 'cmd',
        args: ['/d', '/s', '/c', `start "" "${target.replace(/"/g, '')}"`],
        verbatim: true,
      };
    default:
      return { file: 'xdg-open', args: [target], verbatim: false };
  }
}

/**
 * Starts the opener on `target`. Resolves once it has started; rejects when it cannot be (no
 * opener installed: ENOENT). Whether the opener then finds a browser is its own business.
 */
export function openFile(
  target: string,
  options: { env: NodeJS.ProcessEnv; platform?: NodeJS.Platform },
): Promise<void> {
  const command = openerCommand(options.platform ?? process.platform, target);
  return new Promise((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      detached: true,
      stdio: 'ignore',
      env: options.env,
      windowsVerbatimArguments: command.verbatim,
    });
    child.once('error', reject);
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
