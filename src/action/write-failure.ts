import type { GitHubFailure } from '../system/github.js';

/** What the Action was writing to GitHub, for the words of its failure. */
export interface GitHubWrite {
  /** The thing written: `comment`, `issue`. */
  what: string;
  /** What the token may not do when refused: `comment`, `write issues`. */
  act: string;
  /** The fix for a refusal: the permission the job needs. */
  needs: string;
}

/** Why the Action could not write to GitHub (the PR comment, the drift issue), in words a workflow author can act on. */
export function githubFailureText(error: GitHubFailure, write: GitHubWrite): string {
  switch (error.kind) {
    case 'forbidden':
      return `the token may not ${write.act} (HTTP ${error.status}: ${error.message}); ${write.needs}`;
    case 'too-large':
      return `GitHub refused the ${write.what} as too long (HTTP ${error.status}: ${error.message})`;
    case 'unavailable':
      return `the GitHub API was unavailable after ${error.attempts} attempt${error.attempts === 1 ? '' : 's'} (${error.status === undefined ? 'no answer' : `HTTP ${error.status}`}: ${error.message})`;
    case 'rejected':
      return `GitHub rejected the ${write.what} (HTTP ${error.status}: ${error.message})`;
  }
}
