/** True when lib/cli.bundle.js exists and is newer than src/ and the build's configs. */
export function libIsCurrent(root: string): boolean;
