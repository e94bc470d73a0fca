import { describe, expect, it } from 'vitest';
import {
  commandLine,
  readsSomeSkillFile,
  type SkillFiles,
  shellWords,
  skillUse,
} from '../../../src/agents/codex/command.js';

// What a command line Codex ran did to a skill's files (docs/codex.md "The decision").
const PROJECT = '/tmp/st-x/project';
const DIR = `${PROJECT}/.agents/skills/pdf-stub-1a2b`;
const FILES: SkillFiles = {
  filePath: `${DIR}/SKILL.md`,
  aliases: ['/private/tmp/st-x/project/.agents/skills/pdf-stub-1a2b/SKILL.md'],
  listedFile: 'pdf-stub-1a2b/SKILL.md',
};
/** Quotes a script for `bash -lc` as Codex prints it, `'` inside written `'\''`. */
const quote = (script: string): string => `'${script.replaceAll("'", `'\\''`)}'`;
const bash = (script: string): string => `/bin/bash -lc ${quote(script)}`;

describe('shellWords', () => {
  it('single quotes are literal, even for backslashes and operators', () => {
    expect(shellWords(`echo 'a\\b | c && d'`)).toEqual(['echo', 'a\\b | c && d']);
  });

  it("the '\\'' idiom joins three pieces into one word with a quote inside", () => {
    expect(shellWords(`echo 'it'\\''s'`)).toEqual(['echo', "it's"]);
  });

  it('double quotes honour only the escapes of \\" \\\\ \\$ and \\`', () => {
    expect(shellWords('echo "a\\"b\\\\c\\$d\\`e\\nf"')).toEqual(['echo', 'a"b\\c$d`e\\nf']);
  });

  it('an empty quoted word is a word; adjacent quoted parts join', () => {
    expect(shellWords(`cat '' "" x`)).toEqual(['cat', '', '', 'x']);
    expect(shellWords(`cat a'b'"c"d`)).toEqual(['cat', 'abcd']);
  });

  it('a backslash outside quotes escapes the next character, a space included', () => {
    expect(shellWords('cat My\\ Skill/SKILL.md')).toEqual(['cat', 'My Skill/SKILL.md']);
    expect(shellWords('cat a\\;b')).toEqual(['cat', 'a;b']);
  });

  it('an unterminated quote runs to the end of the line; a trailing backslash adds nothing', () => {
    expect(shellWords(`cat 'a b`)).toEqual(['cat', 'a b']);
    expect(shellWords('cat "a b')).toEqual(['cat', 'a b']);
    expect(shellWords('cat a\\')).toEqual(['cat', 'a']);
  });

  it('operators split words, with or without spaces; tabs and runs of spaces separate', () => {
    expect(shellWords('a\tb   c')).toEqual(['a', 'b', 'c']);
    expect(shellWords('a||b&c\nd')).toEqual(['a', '||', 'b', '&', 'c', '\n', 'd']);
    expect(shellWords('a;;b')).toEqual(['a', ';', ';', 'b']);
  });

  it('expansions are not performed', () => {
    expect(shellWords('cat $HOME/x "$SKILL_DIR"/SKILL.md')).toEqual([
      'cat',
      '$HOME/x',
      '$SKILL_DIR/SKILL.md',
    ]);
  });

  it('an empty line has no words', () => {
    expect(shellWords('')).toEqual([]);
    expect(shellWords('   ')).toEqual([]);
  });
});

describe('skillUse: reading the SKILL.md', () => {
  it('every reader, by absolute path, inside the shell wrapper', () => {
    for (const reader of ['cat', 'sed -n 1,200p', 'head -n 40', 'tail', 'nl -ba', 'less', 'more', 'bat']) {
      expect(skillUse(bash(`${reader} ${FILES.filePath}`), PROJECT, FILES), reader).toBe('read');
    }
    expect(skillUse(bash(`awk '{print}' ${FILES.filePath}`), PROJECT, FILES)).toBe('read');
  });

  it('a reader given by its path or in capitals is still a reader', () => {
    expect(skillUse(`/usr/bin/cat ${FILES.filePath}`, PROJECT, FILES)).toBe('read');
    expect(skillUse(`CAT ${FILES.filePath}`, PROJECT, FILES)).toBe('read');
  });

  it('a path relative to the working directory, and a cd before it, are followed', () => {
    expect(skillUse('cat .agents/skills/pdf-stub-1a2b/SKILL.md', PROJECT, FILES)).toBe('read');
    expect(skillUse(bash('cd .agents/skills && cat ./pdf-stub-1a2b/SKILL.md'), PROJECT, FILES)).toBe('read');
    expect(skillUse(bash(`cd ${DIR}; sed -n 1,80p SKILL.md`), '/', FILES)).toBe('read');
  });

  it('a cd before the wrapper is the wrapped script’s directory', () => {
    expect(skillUse(`cd ${DIR} && ${bash('cat SKILL.md')}`, '/', FILES)).toBe('read');
  });

  it('the same relative path from another directory is not the file', () => {
    expect(skillUse('cat SKILL.md', PROJECT, FILES)).toBeUndefined();
    expect(
      skillUse(bash('cd /elsewhere && cat pdf-stub-1a2b/SKILL.md'), `${PROJECT}/.agents/skills`, FILES),
    ).toBe(undefined);
  });

  it('the other spelling of the path (the realpath behind a symlink) reads it', () => {
    expect(skillUse(`cat ${FILES.aliases?.[0]}`, PROJECT, FILES)).toBe('read');
  });

  it('the listing’s unexpanded alias r<n>/<dir>/SKILL.md reads it, whatever the n', () => {
    expect(skillUse(bash('cat r4/pdf-stub-1a2b/SKILL.md'), PROJECT, FILES)).toBe('read');
    expect(skillUse(bash('cat ./r12/pdf-stub-1a2b/SKILL.md'), PROJECT, FILES)).toBe('read');
    expect(skillUse(bash('cat r4/other/SKILL.md'), PROJECT, FILES)).toBeUndefined();
    expect(skillUse(bash('cat x4/pdf-stub-1a2b/SKILL.md'), PROJECT, FILES)).toBeUndefined();
  });

  it('without a listed file, the alias form names nothing', () => {
    const { listedFile: _, ...plain } = FILES;
    expect(skillUse('cat r4/pdf-stub-1a2b/SKILL.md', PROJECT, plain)).toBeUndefined();
  });

  it('an input redirection with a space is read; options are not operands', () => {
    expect(skillUse(`cat < ${FILES.filePath}`, PROJECT, FILES)).toBe('read');
    expect(skillUse(`head -${FILES.filePath}`, PROJECT, FILES)).toBeUndefined();
  });

  it('a program that is not a reader does not read it (grep, rg, ls, echo)', () => {
    for (const program of ['grep name', 'rg -n name', 'ls -l', 'echo', 'wc -l']) {
      expect(skillUse(`${program} ${FILES.filePath}`, PROJECT, FILES), program).toBeUndefined();
    }
  });

  it('any simple command of a pipeline or list may read it', () => {
    expect(skillUse(bash(`ls ${DIR} | head; cat ${FILES.filePath} | wc -l`), PROJECT, FILES)).toBe('read');
    expect(skillUse(bash(`true || cat ${FILES.filePath}`), PROJECT, FILES)).toBe('read');
    expect(skillUse(`echo start\ncat ${FILES.filePath}`, PROJECT, FILES)).toBe('read');
  });

  it('assignments before the program are skipped, a line of assignments only is nothing', () => {
    expect(skillUse(`A=1 B=two cat ${FILES.filePath}`, PROJECT, FILES)).toBe('read');
    expect(skillUse('A=1 B=2', PROJECT, FILES)).toBeUndefined();
  });

  it('shell wrappers are unwrapped three deep, not deeper', () => {
    const wrap = (script: string): string => `bash -c ${quote(script)}`;
    const read = `cat ${FILES.filePath}`;
    expect(skillUse(wrap(wrap(wrap(read))), PROJECT, FILES)).toBe('read');
    expect(skillUse(wrap(wrap(wrap(wrap(read)))), PROJECT, FILES)).toBeUndefined();
  });

  it('sh, zsh and dash wrap too, with any flags around c', () => {
    for (const shell of ['sh -c', '/bin/zsh -lc', 'dash -ec']) {
      expect(skillUse(`${shell} ${quote(`cat ${FILES.filePath}`)}`, PROJECT, FILES), shell).toBe('read');
    }
  });
});

describe('skillUse: running a script of the skill', () => {
  it('a runner whose first operand is a script under scripts/, by absolute or relative path', () => {
    expect(skillUse(bash(`python3 ${DIR}/scripts/fill.py in.pdf`), PROJECT, FILES)).toBe('script');
    expect(skillUse(bash('python -u scripts/fill.py'), DIR, FILES)).toBe('script');
    expect(skillUse(bash(`cd ${DIR} && node scripts/lib/run.mjs`), '/', FILES)).toBe('script');
    expect(skillUse(`bash ${DIR}/scripts/setup.sh`, PROJECT, FILES)).toBe('script');
  });

  it('a runner named with a path, in capitals or with .exe', () => {
    expect(skillUse(`/usr/bin/python3 ${DIR}/scripts/a.py`, PROJECT, FILES)).toBe('script');
    expect(skillUse(`Python.EXE ${DIR}/scripts/a.py`, PROJECT, FILES)).toBe('script');
  });

  it('a script run directly by its path', () => {
    expect(skillUse(`${DIR}/scripts/check.sh --all`, PROJECT, FILES)).toBe('script');
    expect(skillUse('./check.sh', `${DIR}/scripts`, FILES)).toBe('script');
  });

  it('the alias form of a script under scripts/', () => {
    expect(skillUse('python3 r4/pdf-stub-1a2b/scripts/fill.py', PROJECT, FILES)).toBe('script');
    expect(skillUse('python3 r4/other/scripts/fill.py', PROJECT, FILES)).toBeUndefined();
  });

  it('a script under the realpath spelling of the skill folder', () => {
    expect(
      skillUse('python3 /private/tmp/st-x/project/.agents/skills/pdf-stub-1a2b/scripts/a.py', PROJECT, FILES),
    ).toBe('script');
  });

  it('a file without a script extension, or outside scripts/, is not a run', () => {
    expect(skillUse(`python3 ${DIR}/scripts/data.json`, PROJECT, FILES)).toBeUndefined();
    expect(skillUse(`python3 ${DIR}/tools/a.py`, PROJECT, FILES)).toBeUndefined();
    expect(skillUse(`python3 ${DIR}/scripts-old/a.py`, PROJECT, FILES)).toBeUndefined();
    expect(skillUse(`python3 ${PROJECT}/.agents/skills/other/scripts/a.py`, PROJECT, FILES)).toBeUndefined();
    expect(skillUse('python3', PROJECT, FILES)).toBeUndefined();
  });

  it('reading a script is not running it, and a bare name is not run by path', () => {
    expect(skillUse(`cat ${DIR}/scripts/fill.py`, PROJECT, FILES)).toBeUndefined();
    expect(skillUse('check.sh', `${DIR}/scripts`, FILES)).toBeUndefined();
  });

  it('a run is reported before a read in the same simple command list', () => {
    expect(skillUse(bash(`cat ${FILES.filePath}; python3 ${DIR}/scripts/a.py`), PROJECT, FILES)).toBe('read');
    expect(skillUse(bash(`python3 ${DIR}/scripts/a.py; cat ${FILES.filePath}`), PROJECT, FILES)).toBe(
      'script',
    );
  });
});

describe('readsSomeSkillFile', () => {
  it('a reader with an operand named SKILL.md, anywhere', () => {
    expect(readsSomeSkillFile(bash('cat /home/u/.codex/skills/xlsx/SKILL.md'), PROJECT)).toBe(true);
    expect(readsSomeSkillFile(bash('cd /x && sed -n 1,50p SKILL.md'), PROJECT)).toBe(true);
    expect(readsSomeSkillFile('head -n 5 r2/pdf/SKILL.md', PROJECT)).toBe(true);
  });

  it('not a reader, or not a file named exactly SKILL.md', () => {
    expect(readsSomeSkillFile('grep -n name /x/SKILL.md', PROJECT)).toBe(false);
    expect(readsSomeSkillFile('cat /x/SKILL.md.bak', PROJECT)).toBe(false);
    expect(readsSomeSkillFile('cat /x/README.md', PROJECT)).toBe(false);
    expect(readsSomeSkillFile('ls /x/SKILL.md', PROJECT)).toBe(false);
    expect(readsSomeSkillFile('', PROJECT)).toBe(false);
  });
});

describe('commandLine', () => {
  it('an argv as the rollout records it reads back as the same words', () => {
    const argv = ['/bin/bash', '-lc', `sed -n '1,200p' "a b" && cat x`, '', "it's"];
    expect(commandLine(argv)).toBe(`/bin/bash -lc 'sed -n '\\''1,200p'\\'' "a b" && cat x' '' 'it'\\''s'`);
    expect(shellWords(commandLine(argv))).toEqual(argv);
  });
});
