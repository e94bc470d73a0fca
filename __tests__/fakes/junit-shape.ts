import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Reads a JUnit XML file with a real XML parser and checks it against the JUnit shape that CI
 * reporters read (the common junit.xsd of Jenkins / Surefire): `<testsuites>` of `<testsuite>`s,
 * each with `name`, `tests`, `failures`, `errors`, `time` that agree with its testcases; each
 * `<testcase>` with `name`, `classname`, `time`, and at most one of `<failure>`, `<error>`,
 * `<skipped>`, each carrying `message` and `type`. Throws naming the first thing that is off.
 */
export interface JunitCase {
  name: string;
  classname: string;
  time: number;
  failure?: { message: string; type: string; text: string };
  error?: { message: string; type: string; text: string };
  systemOut?: string;
}

export interface JunitSuite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  properties: Record<string, string>;
  cases: JunitCase[];
}

export interface JunitDoc {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  suites: JunitSuite[];
}

const ARRAYS = new Set(['testsuite', 'testcase', 'property', 'failure', 'error', 'skipped', 'system-out']);

type Node = Record<string, unknown>;

function fail(message: string): never {
  throw new Error(`not JUnit: ${message}`);
}

function attr(node: Node, name: string, where: string): string {
  const value = node[`@_${name}`];
  if (typeof value !== 'string') fail(`${where} has no ${name} attribute`);
  return value;
}

function decimal(node: Node, name: string, where: string): number {
  const value = attr(node, name, where);
  if (!/^\d+(\.\d+)?$/.test(value)) fail(`${where} ${name}="${value}" is not a non-negative number`);
  return Number(value);
}

function textOf(node: unknown): string {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object') {
    const t = (node as Node)['#text'];
    return typeof t === 'string' ? t : t === undefined ? '' : String(t);
  }
  return '';
}

function array(node: Node, key: string): Node[] {
  const value = node[key];
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(`${key} is not a list`);
  return value.map((v) => (typeof v === 'object' && v !== null ? (v as Node) : { '#text': String(v) }));
}

function problem(node: Node, where: string) {
  return {
    message: attr(node, 'message', where),
    type: attr(node, 'type', where),
    text: textOf(node),
  };
}

export function parseJunit(xml: string): JunitDoc {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) fail(`invalid XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    // Numeric character references (&#10; in an attribute) are decoded only with this on.
    htmlEntities: true,
    isArray: (name) => ARRAYS.has(name),
  }).parse(xml) as Node;
  const root = doc.testsuites;
  if (!root || typeof root !== 'object') fail('the root element is not <testsuites>');
  const rootNode = root as Node;
  const suites = array(rootNode, 'testsuite').map((s, i): JunitSuite => {
    const where = `testsuite ${i + 1}`;
    const cases = array(s, 'testcase').map((c, j): JunitCase => {
      const at = `${where} testcase ${j + 1}`;
      const failures = array(c, 'failure');
      const errors = array(c, 'error');
      const skipped = array(c, 'skipped');
      if (failures.length + errors.length + skipped.length > 1)
        fail(`${at} has more than one of failure, error, skipped`);
      const out = array(c, 'system-out');
      return {
        name: attr(c, 'name', at),
        classname: attr(c, 'classname', at),
        time: decimal(c, 'time', at),
        ...(failures[0] ? { failure: problem(failures[0], `${at} failure`) } : {}),
        ...(errors[0] ? { error: problem(errors[0], `${at} error`) } : {}),
        ...(out[0] ? { systemOut: textOf(out[0]) } : {}),
      };
    });
    const tests = decimal(s, 'tests', where);
    const failures = decimal(s, 'failures', where);
    const errors = decimal(s, 'errors', where);
    decimal(s, 'time', where);
    if (tests !== cases.length) fail(`${where} says tests="${tests}" but holds ${cases.length}`);
    if (failures !== cases.filter((c) => c.failure).length) fail(`${where} failures="${failures}" is wrong`);
    if (errors !== cases.filter((c) => c.error).length) fail(`${where} errors="${errors}" is wrong`);
    const properties: Record<string, string> = {};
    const props = s.properties;
    if (props && typeof props === 'object') {
      for (const p of array(props as Node, 'property'))
        properties[attr(p, 'name', `${where} property`)] = attr(p, 'value', `${where} property`);
    }
    return { name: attr(s, 'name', where), tests, failures, errors, properties, cases };
  });
  const sum = (f: (s: JunitSuite) => number) => suites.reduce((n, s) => n + f(s), 0);
  const result: JunitDoc = {
    name: attr(rootNode, 'name', 'testsuites'),
    tests: decimal(rootNode, 'tests', 'testsuites'),
    failures: decimal(rootNode, 'failures', 'testsuites'),
    errors: decimal(rootNode, 'errors', 'testsuites'),
    suites,
  };
  if (result.tests !== sum((s) => s.tests)) fail('testsuites tests is not the sum of its suites');
  if (result.failures !== sum((s) => s.failures)) fail('testsuites failures is not the sum of its suites');
  if (result.errors !== sum((s) => s.errors)) fail('testsuites errors is not the sum of its suites');
  return result;
}
