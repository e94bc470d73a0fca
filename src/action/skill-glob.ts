import picomatch from 'picomatch';
import { messageOf, UsageError } from '../errors.js';

/**
 * The `skills` input: globs over repository-relative, `/`-separated paths, read by picomatch (the
 * matcher of micromatch, fast-glob and tinyglobby), so they mean what they mean elsewhere:
 * - `**` matches any number of folders (also none), `*` anything within one path segment, `?` one
 *   character of a segment, `[ab]` / `[a-z]` one of a set (`[^a]` one not in it), `{a,b}` either alternative, `{1..3}` a
 *   range, and the extglobs `!(wip)`, `@(a|b)`, `+(x)`; names starting with a dot match too;
 * - a `{`, `[` or `(` that is never closed is an error naming the glob, not silently closed;
 * - backslashes are never separators, on any runner (the paths come from git, always `/`).
 * A line starting with `!` excludes what it matches; later lines win (as in .gitignore).
 * Only files named exactly SKILL.md are ever skills, whatever the globs say.
 */
const OPTIONS = { dot: true, strictBrackets: true, nonegate: true, windows: false } as const;

/** One glob as an anchored regular expression. Throws a UsageError naming a malformed glob. */
export function globToRegExp(glob: string): RegExp {
  try {
    return picomatch.makeRe(glob, OPTIONS);
  } catch (error) {
    const reason = messageOf(error);
    throw new UsageError(`the glob "${glob}" cannot be read: ${reason}`);
  }
}

/** A matcher for the `skills` input's lines. */
export function skillMatcher(globs: readonly string[]): (path: string) => boolean {
  const rules = globs.map((glob) => ({
    exclude: glob.startsWith('!'),
    regex: globToRegExp(glob.replace(/^!/, '').replace(/^\.\//, '')),
  }));
  return (path: string) => {
    if (path.split('/').at(-1) !== 'SKILL.md') return false;
    let included = false;
    for (const rule of rules) if (rule.regex.test(path)) included = !rule.exclude;
    return included;
  };
}
