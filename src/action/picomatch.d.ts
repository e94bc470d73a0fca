/**
 * The part of picomatch 4's API skilltrigger uses (the package ships no types, and @types/picomatch
 * is not installed). See https://github.com/micromatch/picomatch#options.
 */
declare module 'picomatch' {
  interface PicomatchOptions {
    /** Let `*` and `**` match names that start with a dot. */
    dot?: boolean;
    /** Throw on an unbalanced `{`, `[` or `(` instead of matching it literally or not at all. */
    strictBrackets?: boolean;
    /** Treat a leading `!` as a literal character, not a negation. */
    nonegate?: boolean;
    /** Backslashes as path separators (default: on Windows only). */
    windows?: boolean;
  }
  interface Picomatch {
    (glob: string | readonly string[], options?: PicomatchOptions): (path: string) => boolean;
    makeRe(glob: string, options?: PicomatchOptions): RegExp;
  }
  const picomatch: Picomatch;
  export default picomatch;
}
