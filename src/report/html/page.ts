import { createHash } from 'node:crypto';
import { constantMarkup, html, type Markup } from './markup.js';
import { STYLE_SHEET } from './style.js';

/**
 * The shell every page shares: one self-contained file. Its Content Security Policy allows the
 * page's own style sheet (by hash) and nothing else: no script, no image, font, frame or
 * connection, no form target, no base URL. A tag that slipped through escaping could still load
 * nothing; the browser test checks the page makes no request and logs no error.
 */

/** The page types; a later one (matrix, improve) adds its name here and its body module. */
export type PageKind = 'run' | 'paired' | 'compare' | 'improve' | 'matrix';

export interface PageParts {
  kind: PageKind;
  /** The document title, as text. */
  title: string;
  /** The skilltrigger version that wrote the page. */
  toolVersion: string;
  body: Markup;
}

const styleHash = createHash('sha256').update(STYLE_SHEET, 'utf8').digest('base64');

/**
 * The policy as a meta tag. Only directives a meta policy honours: `frame-ancestors`, `sandbox`
 * and `report-uri` are ignored there, and the browser logs each as a console error.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${styleHash}'`,
  "img-src 'none'",
  "script-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** A whole page, ending in one newline. */
export function renderPage(parts: PageParts): string {
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="skilltrigger ${parts.toolVersion}">
<title>${parts.title}</title>
<style>${constantMarkup(STYLE_SHEET)}</style>
</head>
<body data-page="${parts.kind}">
${parts.body}
<footer>Written by skilltrigger ${parts.toolVersion} from ${parts.kind === 'compare' ? 'two JSON reports' : 'its JSON report'}. A self-contained page: it loads nothing and runs no script.</footer>
</body>
</html>
`;
  return page.text;
}
