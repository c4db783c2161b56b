/**
 * What both TypeScript scenario players read the same way: ../scenarios/player.ts (the
 * generated-client scenarios, contract-tests/scenarios) and ../clients/player.ts (the
 * hand-written-client scenarios, contract-tests/scenarios/clients). Loading and checking a
 * scenario file, the steps' failure messages, references to captured values, the matchers,
 * JSON Pointers and the metric step.
 */

import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { Ajv2020 } from 'ajv/dist/2020.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Step = Record<string, any>;

export class ScenarioFailure extends Error {}

/** Reads each file of directory and checks it against directory/schema.json (named schemaName in messages) and its name. */
export function loadScenarioFiles(directory: string, files: string[], schemaName: string): Record<string, any>[] {
  const schema = JSON.parse(readFileSync(join(directory, 'schema.json'), 'utf8'));
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  return files.map((file) => {
    const data: Record<string, any> = JSON.parse(readFileSync(join(directory, file), 'utf8'));
    if (!validate(data)) {
      const details = (validate.errors ?? []).map((e) => `  ${e.instancePath || '(root)'}: ${e.message}`).join('\n');
      throw new ScenarioFailure(`${file} does not follow ${schemaName}:\n${details}`);
    }
    if (data.name !== basename(file, '.json')) throw new ScenarioFailure(`${file}: name ${data.name} must equal the file name`);
    return data;
  });
}

/** Runs the steps in order; a failing step's message says where (`<where>, step <n> (<note>)`). */
export async function playSteps(where: string, steps: Step[], runStep: (step: Step) => Promise<void>): Promise<void> {
  for (const [index, step] of steps.entries()) {
    try {
      await runStep(step);
    } catch (error) {
      if (!(error instanceof ScenarioFailure)) throw error;
      const note = step.note ? ` (${step.note})` : '';
      throw new ScenarioFailure(`${where}, step ${index + 1}${note}: ${error.message}`);
    }
  }
}

// -- values, matchers --------------------------------------------------------------------------------

export const MISSING = Symbol('missing');
export type Found = Json | typeof MISSING;
const REFERENCE = /^\$[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

function lookup(variables: Map<string, Json>, reference: string): Json {
  const [name, ...parts] = reference.split('.') as [string, ...string[]];
  if (!variables.has(name)) throw new ScenarioFailure(`$${reference}: nothing was captured as ${name}`);
  let value = variables.get(name) as Json;
  for (const part of parts) {
    if (Array.isArray(value) && /^\d+$/.test(part) && Number(part) < value.length) value = value[Number(part)] as Json;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value) && part in value) value = value[part] as Json;
    else throw new ScenarioFailure(`$${reference}: ${part} is not in the captured value ${JSON.stringify(value)}`);
  }
  return value;
}

export function resolve(value: Json, variables: Map<string, Json>): Json {
  if (typeof value === 'string') {
    if (value.startsWith('$$')) return value.slice(1);
    if (REFERENCE.test(value)) return lookup(variables, value.slice(1));
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, variables));
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === '$repeat') {
      const spec = value.$repeat as Record<string, Json>;
      return String(resolve(spec.text as Json, variables)).repeat(Number(resolve(spec.times as Json, variables)));
    }
    return Object.fromEntries(keys.map((key) => [key, resolve(value[key] as Json, variables)]));
  }
  return value;
}

export function pointer(document: Json | undefined, location: string): Found {
  if (document === undefined) return MISSING;
  if (location === '') return document;
  let value: Json = document;
  for (const raw of location.slice(1).split('/')) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value) && /^\d+$/.test(part) && Number(part) < value.length) value = value[Number(part)] as Json;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, part)) value = value[part] as Json;
    else return MISSING;
  }
  return value;
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i] as Json));
  const ak = Object.keys(a as object);
  const bo = b as Record<string, Json>;
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && deepEqual((a as Record<string, Json>)[k] as Json, bo[k] as Json));
}

const JSON_TYPES: Record<string, (value: Json) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  array: (v) => Array.isArray(v),
  null: (v) => v === null,
};

export function matches(actual: Found, expected: Json, variables: Map<string, Json>): boolean {
  if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
    const keys = Object.keys(expected);
    const operator = keys[0];
    if (keys.length === 1 && operator !== undefined && operator.startsWith('$') && operator !== '$repeat') {
      const argument = resolve(expected[operator] as Json, variables);
      if (operator === '$exists') return (actual !== MISSING) === argument;
      if (actual === MISSING) return false;
      switch (operator) {
        case '$len':
          return (Array.isArray(actual) || typeof actual === 'string') ? actual.length === Number(argument)
            : typeof actual === 'object' && actual !== null ? Object.keys(actual).length === Number(argument) : false;
        case '$in':
          return Array.isArray(argument) && argument.some((item) => deepEqual(actual, item));
        case '$ne':
          return !deepEqual(actual, argument);
        case '$type':
          return JSON_TYPES[String(argument)]?.(actual) ?? false;
        default:
          throw new ScenarioFailure(`unknown matcher ${operator}`);
      }
    }
  }
  return actual !== MISSING && deepEqual(actual, resolve(expected, variables));
}

/** The sum of the samples called `name` whose labels include `labels`. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const sample = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!sample || sample[1] !== name) continue;
    const found = Object.fromEntries([...(sample[2] ?? '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) total += Number(sample[3]);
  }
  return total;
}

/** A `metric` step: reads baseUrl/metrics, checks the increase since a captured value, captures the value. */
export async function metricStep(baseUrl: string, timeoutMs: number, step: Step, variables: Map<string, Json>): Promise<void> {
  const text = await (await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(timeoutMs) })).text();
  const value = metricValue(text, step.metric, step.labels ?? {});
  if (step.expect) {
    const since = Number(resolve(step.expect.since, variables));
    if (value - since !== step.expect.increase) {
      throw new ScenarioFailure(`${step.metric}${JSON.stringify(step.labels ?? {})} grew by ${value - since}, expected ${step.expect.increase}`);
    }
  }
  if (step.capture) variables.set(step.capture, value);
}
