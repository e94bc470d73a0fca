import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { commandList } from '../../src/cli/help/help.js';
import { REPO_ROOT } from '../fakes/cli.js';

/** What the README promises about installing and using skilltrigger agrees with the files that decide it. */
const read = (file: string) => readFile(path.join(REPO_ROOT, file), 'utf8');

describe('README', () => {
  it('names the same action reference as every example workflow', async () => {
    const refs = (text: string) =>
      [...text.matchAll(/uses:\s*(\S*skilltrigger@\S+)/g)].map((m) => m[1] ?? '');
    const readme = refs(await read('README.md'));
    expect(readme.length).toBeGreaterThan(0);
    const examples: string[] = [];
    for (const file of await readdir(path.join(REPO_ROOT, 'examples', 'workflows'))) {
      examples.push(...refs(await read(path.join('examples', 'workflows', file))));
    }
    expect(examples.length).toBeGreaterThan(0);
    expect(new Set([...readme, ...examples])).toEqual(new Set(['skilltrigger/skilltrigger@v1']));
  });

  it('states the Node versions package.json engines allows', async () => {
    const engines = (JSON.parse(await read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('>=20.5');
    const readme = await read('README.md');
    expect(readme).toContain('Node.js 20.5 or later and git');
    expect(readme).toContain('The CLI needs Node.js 20.5 or later (`engines` in package.json)');
  });

  it('lists the commands exactly as the help texts give them', async () => {
    const readme = await read('README.md');
    const block = /## The CLI\n\n```\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(`${commandList().join('\n')}\n`);
  });

  it('every skilltrigger command line of its quick start and examples parses with the options the help knows', async () => {
    const readme = await read('README.md');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
    const lines = blocks
      .flatMap((b) => b.split('\n'))
      .map((l) => l.replace(/#.*$/, '').trim())
      .filter((l) => /^npx skilltrigger /.test(l));
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      const argv = line.replace(/^npx skilltrigger /, '').split(/\s+/);
      expect(() => parseCli(argv, {}), line).not.toThrow();
    }
  });

  it('stays a short guide: under 250 lines, its sections in order, no internal references', async () => {
    const readme = await read('README.md');
    expect(readme.split('\n').length).toBeLessThan(250);
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'Quick start',
      'What it measures',
      'The CLI',
      'The GitHub Action',
      'Where to read more',
    ]);
    // History (issue numbers, named fixes) belongs in commit messages and docs/speed.md.
    expect(readme).not.toMatch(/\bissue \d+|#\d+\b|\bfix of\b|tiering/i);
  });

  it("keeps the quick start's two commands: install, then the offline demo", async () => {
    const readme = await read('README.md');
    const quick = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = quick
      .split('\n')
      .map((l) => l.replace(/#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm ci', 'npm run demo']);
  });
});
