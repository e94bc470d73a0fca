import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The package each tool's 404 names, as npm prints it. */
const PACKAGE = {
  claude: '@anthropic-ai%2fclaude-code',
  codex: '@openai%2fcodex',
  gemini: '@google%2fgemini-cli',
} as const;

/**
 * A stand-in `npm` for the Action's install step (the registry is not reachable offline), written
 * as `<dir>/npm`: it appends its argv to FAKE_NPM_LOG and links the project's own pinned binary
 * (FAKE_NPM_CLAUDE, FAKE_NPM_CODEX or FAKE_NPM_GEMINI) into `<prefix>/node_modules/.bin/<tool>`, as the real
 * package's bin would be; with FAKE_NPM_FAIL=1 it fails as npm does on a 404. Put `dir` first on
 * the job's PATH.
 */
export async function writeFakeNpm(dir: string, tool: keyof typeof PACKAGE): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'npm');
  await writeFile(
    file,
    `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
fs.appendFileSync(process.env.FAKE_NPM_LOG, JSON.stringify(args) + '\\n');
if (process.env.FAKE_NPM_FAIL === '1') {
  console.error('npm error 404 Not Found - GET https://registry.npmjs.org/${PACKAGE[tool]}');
  process.exit(1);
}
const prefix = args[args.indexOf('--prefix') + 1];
const bin = path.join(prefix, 'node_modules', '.bin');
fs.mkdirSync(bin, { recursive: true });
fs.symlinkSync(process.env.FAKE_NPM_${tool.toUpperCase()}, path.join(bin, '${tool}'));
`,
  );
  await chmod(file, 0o755);
}
