import { type DefaultTreeAdapterMap, parse } from 'parse5';

/**
 * The HTML pages read as a browser's parser reads them (parse5 implements the WHATWG parsing
 * algorithm), so tests assert on the DOM a browser would build, never on the markup's text.
 */

export type DomNode = DefaultTreeAdapterMap['node'];
export type DomElement = DefaultTreeAdapterMap['element'];

export function parsePage(html: string): DefaultTreeAdapterMap['document'] {
  return parse(html);
}

function children(node: DomNode): DomNode[] {
  if ('content' in node && node.content) return node.content.childNodes;
  return 'childNodes' in node ? node.childNodes : [];
}

export function isElement(node: DomNode): node is DomElement {
  return 'tagName' in node;
}

/** Every node, depth first, in document order. */
export function* walk(node: DomNode): Generator<DomNode> {
  yield node;
  for (const child of children(node)) yield* walk(child);
}

export function elements(root: DomNode): DomElement[] {
  return [...walk(root)].filter(isElement);
}

export function attr(el: DomElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

/** The text a node holds (all its text nodes, joined), as `textContent` would give it. */
export function textOf(node: DomNode): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  return children(node).map(textOf).join('');
}

export function byTag(root: DomNode, tag: string): DomElement[] {
  return elements(root).filter((el) => el.tagName === tag);
}

/** Elements whose class list holds `name`. */
export function byClass(root: DomNode, name: string): DomElement[] {
  return elements(root).filter((el) => (attr(el, 'class') ?? '').split(/\s+/).includes(name));
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * An indented outline of the page for golden files: each element with its attributes, and the
 * text it holds directly. The style sheet and the policy's hash of it are left out (their own
 * tests check them), so a change of colour does not rewrite every golden.
 */
export function outline(root: DomNode): string {
  const lines: string[] = [];
  const visit = (node: DomNode, depth: number) => {
    if (!isElement(node)) return;
    const attrs = node.attrs
      .map(({ name, value }) =>
        value === '' ? name : `${name}=${JSON.stringify(value.replace(/'sha256-[^']+'/, "'sha256-…'"))}`,
      )
      .join(' ');
    const own = collapse(
      children(node)
        .filter((c) => c.nodeName === '#text')
        .map(textOf)
        .join(' '),
    );
    const text = node.tagName === 'style' ? `(${own.length > 0 ? 'style sheet' : 'empty'})` : own;
    lines.push(
      `${'  '.repeat(depth)}${node.tagName}${attrs ? ` ${attrs}` : ''}${text ? ` ${JSON.stringify(text)}` : ''}`,
    );
    if (node.tagName !== 'style') for (const child of children(node)) visit(child, depth + 1);
  };
  for (const child of children(root)) visit(child, 0);
  return `${lines.join('\n')}\n`;
}

/** The tool version the page tests render with (pinned, so the golden outlines do not move with a release). */
export const PAGE_TEST_VERSION = '0.1.0';

/** `list[i]`, or a failed test naming the missing entry (a page with fewer elements than expected). */
export function at<T>(list: readonly T[], i: number): T {
  const v = list[i];
  if (v === undefined) throw new Error(`expected an entry ${i}, found none`);
  return v;
}
