import { readFileSync } from 'node:fs';

/**
 * The tool's version, from package.json next to the compiled code (lib/ or src/ under it).
 * The Action bundle replaces this at build time via ncc's static analysis of the relative path.
 */
function readVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8'));
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'name' in parsed &&
        parsed.name === 'skilltrigger'
      ) {
        const version = 'version' in parsed ? parsed.version : undefined;
        if (typeof version === 'string') return version;
      }
    } catch {
      /* try the next location */
    }
  }
  return '0.0.0-unknown';
}

export const TOOL_VERSION = readVersion();
