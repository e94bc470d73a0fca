/**
 * User text placed in the comment's and the summary's Markdown (pure): what `escapeInline` leaves
 * open at the start of a line, commit shas (checked to be hex before they reach a code span), and
 * a reason made a sentence.
 */
import { escapeInline } from '../../escape.js';

const HEX = /^[0-9a-f]{7,64}$/i;

/**
 * User text that starts a Markdown line (a list item's text, a paragraph): `escapeInline` keeps it
 * inline only after other text, so here the openers it leaves alone at a block start are broken
 * too — `1. `/`1) ` (an ordered list), `+ ` (a bullet list) and leading spaces (indented code).
 */
export function escapeLineStart(text: string): string {
  return escapeInline(text.trimStart())
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/^\+/, '\\+');
}

/** A commit as `abc1234` in a code span, or nothing when it is not a sha (so no user text reaches a code span). */
export function shortSha(sha: string | undefined): string {
  return sha !== undefined && HEX.test(sha) ? `\`${sha.slice(0, 7)}\`` : 'an unknown commit';
}

/** A reason ends as a sentence: a full stop unless it has its own. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
