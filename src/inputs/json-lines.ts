/** Where a JSON text's parts are, by line: its array's entries, and a parse error's position (pure). */
import { isSeq, LineCounter, parseDocument } from 'yaml';

/** 1-based line of each top-level array element, read by parsing the JSON as YAML (a superset). */
export function entryLines(text: string): (number | undefined)[] {
  try {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, prettyErrors: false });
    if (!isSeq(doc.contents)) return [];
    return doc.contents.items.map((item) => {
      const range = (item as { range?: [number, number, number] | null } | null)?.range;
      return range ? lineCounter.linePos(range[0]).line : undefined;
    });
  } catch {
    return [];
  }
}

/** Node 20 says "at position N"; newer versions add "(line L column C)". Both become a line. */
export function jsonErrorPosition(
  message: string,
  text: string,
): { line: number; column: number } | undefined {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc?.[1] && lc[2]) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  if (!pos?.[1]) {
    if (/end of JSON input/i.test(message)) {
      const lines = text.split('\n');
      return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
    }
    return undefined;
  }
  const before = text.slice(0, Number(pos[1]));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}
