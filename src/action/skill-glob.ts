/**
 * The `skills` input: globs over repository-relative, `/`-separated paths.
 * - `**` matches any number of folders (also none), `*` anything within one path segment, `?` one
 *   character of a segment, `{a,b}` either alternative; every other character is literal.
 * - A line starting with `!` excludes what it matches; later lines win (as in .gitignore).
 * Only files named exactly SKILL.md are ever skills, whatever the globs say.
 */

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** One glob as an anchored regular expression. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let i = 0;
  let braces = 0;
  while (i < glob.length) {
    const c = glob.charAt(i);
    if (c === '*' && glob.charAt(i + 1) === '*') {
      const atStart = i === 0 || glob.charAt(i - 1) === '/';
      const atEnd = i + 2 === glob.length || glob.charAt(i + 2) === '/';
      if (atStart && atEnd) {
        // `**/` is zero or more whole folders; a trailing `**` is everything below.
        if (i + 2 === glob.length) {
          out += '.*';
          i += 2;
        } else {
          out += '(?:[^/]+/)*';
          i += 3;
        }
        continue;
      }
      out += '[^/]*';
      i += 2;
      continue;
    }
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) out += '|';
    else out += escapeRegExp(c);
    i++;
  }
  out += ')'.repeat(braces);
  return new RegExp(`^${out}$`);
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
