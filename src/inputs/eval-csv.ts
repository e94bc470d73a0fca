import { parse } from 'csv-parse/sync';
import { messageOf } from '../errors.js';
import { checkAnnotations } from './annotations.js';
import { takeContext } from './eval-context.js';
import { type Candidate, candidateOf, entryLabel, parseBooleanWord, readQuery } from './eval-entry.js';
import { isRecord, type Problems, quote } from './problems.js';

const QUERY_COLUMNS = ['query', 'prompt'] as const;

/**
 * A CSV eval set as OpenAI's Codex guidance writes it (`id,should_trigger,prompt`): a header with
 * `should_trigger` and one of `query`/`prompt`, optionally `id`; other columns are kept as text in
 * `extra`. Header names match case-insensitively.
 */
export function readCsv(text: string, file: string, problems: Problems): Candidate[] {
  const records = parseRecords(text, file, problems);
  const [header, ...rows] = records;
  if (!header) return [];
  const columns = readHeader(header, file, problems);
  problems.throwIfAny();
  const candidates: Candidate[] = [];
  rows.forEach((row, index) => {
    const candidate = readRow(row, index + 1, columns, file, problems);
    if (candidate) candidates.push(candidate);
  });
  return candidates;
}

type ParsedRecord = { record: string[]; info: { lines: number } };

/** The file's records, each with the line it ends on; a file csv-parse refuses is a thrown problem. */
function parseRecords(text: string, file: string, problems: Problems): ParsedRecord[] {
  // csv-parse guesses the record delimiter from the first line break; a CRLF file then reports
  // line numbers one off. Normalised to LF, `info.lines` is the line a record ends on.
  const source = text.replace(/\r\n?/g, '\n');
  try {
    const parsed: unknown = parse(source, { info: true, relax_column_count: true, skip_empty_lines: true });
    return Array.isArray(parsed) ? parsed.filter(isParsedRecord) : [];
  } catch (error) {
    const message = messageOf(error);
    const line = isRecord(error) && typeof error.lines === 'number' ? error.lines : undefined;
    problems.add(
      { file, ...(line !== undefined ? { line } : {}) },
      `is not valid CSV: ${message}`,
      'wrap a field that holds a comma, a quote or a line break in double quotes, and double any quote inside it ("")',
    );
    problems.throwIfAny();
    return [];
  }
}

/** Where the header puts each column a row is read by. */
interface Columns {
  /** The header's names, trimmed. */
  names: string[];
  queryColName: string;
  queryCol: number;
  triggerCol: number;
  idCol: number;
}

/** The header's columns; a repeated name, or a missing should_trigger or prompt column, is a problem. */
function readHeader(header: ParsedRecord, file: string, problems: Problems): Columns {
  const names = header.record.map((n) => n.trim());
  const lower = names.map((n) => n.toLowerCase());
  const headerAt = { file, line: startLine(header) };

  const duplicate = lower.find((n, i) => n !== '' && lower.indexOf(n) !== i);
  if (duplicate) {
    problems.add(
      headerAt,
      `the header names the column ${quote(duplicate)} twice`,
      'rename or remove one of them',
    );
  }
  const triggerCol = lower.indexOf('should_trigger');
  const queryCols = QUERY_COLUMNS.filter((c) => lower.includes(c));
  if (triggerCol === -1 || queryCols.length !== 1) {
    const what =
      queryCols.length === 2
        ? 'has both a "query" and a "prompt" column'
        : [
            triggerCol === -1 ? 'no "should_trigger" column' : '',
            queryCols.length === 0 ? 'no "query" or "prompt" column' : '',
          ]
            .filter(Boolean)
            .join(' and ');
    problems.add(
      headerAt,
      `the header (${names.map((n) => quote(n, 30)).join(', ')}) ${what.startsWith('has') ? what : `has ${what}`}`,
      queryCols.length === 2
        ? 'keep one of the two columns'
        : 'make the first line a header such as id,should_trigger,prompt',
    );
  }
  const queryColName = queryCols[0] ?? 'prompt';
  return {
    names,
    queryColName,
    queryCol: lower.indexOf(queryColName),
    triggerCol,
    idCol: lower.indexOf('id'),
  };
}

/** One row as a candidate, or undefined when it has not as many fields as the header. */
function readRow(
  row: ParsedRecord,
  position: number,
  { names, queryColName, queryCol, triggerCol, idCol }: Columns,
  file: string,
  problems: Problems,
): Candidate | undefined {
  const cells = row.record;
  const idCell = idCol === -1 ? '' : (cells[idCol] ?? '').trim();
  const id = idCell === '' ? undefined : idCell;
  const location = { file, line: startLine(row), entry: entryLabel(position, id) };
  if (cells.length !== names.length) {
    problems.add(
      location,
      `has ${cells.length} field(s), the header has ${names.length}`,
      'wrap a prompt that holds a comma in double quotes, and give every row the same columns',
    );
    return undefined;
  }
  const query = readQuery(cells[queryCol], queryColName, location, problems);
  const cell = cells[triggerCol] ?? '';
  const shouldTrigger = parseBooleanWord(cell);
  if (shouldTrigger === undefined) {
    problems.add(
      location,
      cell.trim() === '' ? 'should_trigger is empty' : `should_trigger is ${quote(cell)}`,
      'write true or false (yes/no and 1/0 work too)',
    );
  }
  const extra: Record<string, unknown> = {};
  names.forEach((name, i) => {
    if (i !== queryCol && i !== triggerCol && i !== idCol) extra[name] = cells[i] ?? '';
  });
  const context = takeContext(extra, location, problems, false);
  checkAnnotations(extra, location, problems, false);
  return candidateOf(position, location, { id, query, shouldTrigger }, extra, context);
}

function isParsedRecord(value: unknown): value is ParsedRecord {
  return (
    isRecord(value) &&
    Array.isArray(value.record) &&
    value.record.every((c) => typeof c === 'string') &&
    isRecord(value.info) &&
    typeof value.info.lines === 'number'
  );
}

/** `info.lines` is where a record ends; a quoted field with line breaks starts it earlier. */
function startLine(row: ParsedRecord): number {
  const breaks = row.record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
  return row.info.lines - breaks;
}
