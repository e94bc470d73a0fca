/**
 * The sticky comment's body (pure; exported for tests and golden files): the hidden marker it is
 * found again by, the head-sha stamp that orders two runs, and the cut to GitHub's size limit.
 */

/** GitHub's limit for an issue comment body, in characters. */
export const MAX_COMMENT_CHARS = 65_536;

/** Marker text: letters, digits and `_.:/-`, no `--` (which would end the HTML comment early). */
function markerName(marker: string): string {
  return marker.replace(/[^A-Za-z0-9_.:/-]/g, '-').replace(/-{2,}/g, '-');
}

/** `<!-- skilltrigger:<marker> -->`: how the sticky comment is found again. */
export function stickyMarker(marker: string): string {
  return `<!-- skilltrigger:${markerName(marker)} -->`;
}

/** `<!-- skilltrigger-sha:<sha> <iso time> -->` */
export function shaStamp(sha: string, time: Date): string {
  return `<!-- skilltrigger-sha:${sha} ${time.toISOString()} -->`;
}

const STAMP = /<!-- skilltrigger-sha:([0-9A-Za-z]+) (\S+) -->/;
/** A head sha the stamp can carry (the stamp is left out for anything else). */
export const STAMP_SHA = /^[0-9A-Za-z]{1,64}$/;

/** The sha and time of a comment's stamp, if it carries a well-formed one. */
export function parseShaStamp(body: string): { sha: string; time: Date } | undefined {
  const match = STAMP.exec(body);
  if (!match?.[1] || !match[2]) return undefined;
  const time = new Date(match[2]);
  return Number.isNaN(time.getTime()) ? undefined : { sha: match[1], time };
}

/**
 * The stale rule: keep the existing comment when it records a *different* head sha whose time is
 * *later* than ours (a newer push already reported; we are a slow, older run). The same sha (a
 * re-run), an earlier or equal time, or no stamp on either side: update.
 */
export function isStale(existingBody: string, headSha: string | undefined, headTime: Date): boolean {
  if (headSha === undefined) return false;
  const existing = parseShaStamp(existingBody);
  if (!existing || existing.sha === headSha) return false;
  return existing.time.getTime() > headTime.getTime();
}

const DEFAULT_TRUNCATION_NOTE =
  "> [!NOTE]\n> This comment was cut to fit GitHub's 65,536-character limit ({dropped} characters left out). " +
  'The full results are in the job summary.';

/**
 * The whole comment: hidden marker, optional sha stamp, then the content, cut so that the total
 * stays within `limit` UTF-16 units (never more than GitHub's character count). The cut falls at a
 * line end when one is near, never inside a surrogate pair, and closes an open code fence.
 */
export function composeStickyBody(opts: {
  marker: string;
  body: string;
  stamp?: string;
  limit?: number;
  truncationNote?: string;
}): string {
  const limit = opts.limit ?? MAX_COMMENT_CHARS;
  const header = `${stickyMarker(opts.marker)}\n${opts.stamp ? `${opts.stamp}\n` : ''}`;
  const full = header + opts.body;
  if (full.length <= limit) return full;

  const template = opts.truncationNote ?? DEFAULT_TRUNCATION_NOTE;
  const noteFor = (dropped: number, fence: boolean): string =>
    `${fence ? '\n```' : ''}\n\n${template.replace('{dropped}', String(dropped))}`;
  // Reserve room for the longest note this cut can need.
  const room = Math.max(0, limit - header.length - noteFor(opts.body.length, true).length);
  let cut = opts.body.slice(0, room);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const lineEnd = cut.lastIndexOf('\n');
  if (lineEnd >= room * 0.9) cut = cut.slice(0, lineEnd);
  const openFence = (cut.match(/^```/gm)?.length ?? 0) % 2 === 1;
  return (header + cut + noteFor(opts.body.length - cut.length, openFence)).slice(0, limit);
}
