"""The part of every generated TypeScript module that does not depend on
the design: values and DynamoDB JSON both ways, the errors, key text,
sparse conditions and pages. Kept as source text (tsc --strict checks it
with every module the tests generate)."""

from __future__ import annotations

# Names the runtime binds at the module's top level: generated names avoid
# them.
RUNTIME_NAMES = frozenset(
    {
        "TABLE_NAME",
        "Value",
        "Item",
        "Wire",
        "Page",
        "KeyValues",
        "DataAccessError",
        "ConditionFailed",
        "TransactionCanceled",
        "UnrecognisedItem",
        "MalformedItem",
        "AnyEntity",
        "recognise",
        "guarded",
        "numberText",
        "toAttribute",
        "fromAttribute",
        "toWire",
        "fromWire",
        "text",
        "required",
        "padded",
        "compares",
        "fromKeys",
        "matches",
        "complete",
        "own",
        "put",
        "client",
        "params",
        "startKey",
        "request",
        "response",
        "item",
        "page",
        "actions",
        "writes",
        "unprocessed",
        "requestItems",
    }
)

HELPERS = r"""
/** A value of an item: numbers as JavaScript numbers, binary as bytes. */
export type Value =
  | string
  | number
  | boolean
  | null
  | Uint8Array
  | Value[]
  | { [name: string]: Value }
  | Set<string>
  | Set<number>
  | Set<Uint8Array>;
/** An item with its values as JavaScript values. */
export type Item = Record<string, Value>;
/** An item in DynamoDB JSON, as the SDK sends it. */
export type Wire = Record<string, AttributeValue>;

/** A request DynamoDB refused; `code` is its error code. */
export class DataAccessError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = new.target.name;
  }
}

/** The write's condition did not hold: nothing was written. */
export class ConditionFailed extends DataAccessError {}

/** The transaction wrote nothing; `reasons` has one code per action ("None"
 * for an action that was not the cause). */
export class TransactionCanceled extends DataAccessError {
  constructor(
    code: string,
    message: string,
    readonly reasons: string[],
  ) {
    super(code, message);
  }

  /** Whether an action's condition did not hold. */
  get conditionFailed(): boolean {
    return this.reasons.includes("ConditionalCheckFailed");
  }
}

/** An item returned that no entity's keys describe, or of an entity the
 * pattern does not return. */
export class UnrecognisedItem extends Error {
  constructor(readonly item: Item) {
    super(`no entity of the pattern has these keys: ${Object.keys(item).join(", ")}`);
    this.name = "UnrecognisedItem";
  }
}

/** An item with an entity's keys that lacks attributes the entity requires
 * (written by other code, or before the design required them); `missing`
 * names them, `key` is the item's table key. */
export class MalformedItem extends Error {
  constructor(
    readonly entity: string,
    readonly missing: string[],
    readonly key: Item,
    readonly item: Item,
  ) {
    super(
      `the ${entity} item with key ${JSON.stringify(key)} lacks ` +
        `${missing.join(", ")}, which the design requires`,
    );
    this.name = "MalformedItem";
  }
}

/** One page of a Query or Scan: its items, and the key to pass as startKey
 * for the next page (undefined after the last). */
export interface Page<T> {
  readonly items: T[];
  readonly lastEvaluatedKey: Wire | undefined;
}

/** The response, or the error as one of this module's errors. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error && error.name === "ConditionalCheckFailedException") {
      throw new ConditionFailed(error.name, error.message);
    }
    if (error instanceof Error && error.name === "TransactionCanceledException") {
      const reasons =
        (error as Error & { CancellationReasons?: { Code?: string }[] })
          .CancellationReasons ?? [];
      throw new TransactionCanceled(
        error.name,
        error.message,
        reasons.map((reason) => reason.Code ?? "None"),
      );
    }
    throw error;
  }
}

/** A number as DynamoDB writes it: no exponent. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) {
    throw new RangeError(`not a DynamoDB number: ${value}`);
  }
  const shown = String(value);
  if (!shown.includes("e")) {
    return shown;
  }
  if (Number.isInteger(value)) {
    return BigInt(value).toString();
  }
  return value.toFixed(20).replace(/0+$/, "");
}

/** A value as DynamoDB JSON ({ S: "text" }, { N: "12.5" }...). */
export function toAttribute(value: Value): AttributeValue {
  if (typeof value === "string") {
    return { S: value };
  }
  if (typeof value === "number") {
    return { N: numberText(value) };
  }
  if (typeof value === "boolean") {
    return { BOOL: value };
  }
  if (value === null) {
    return { NULL: true };
  }
  if (value instanceof Uint8Array) {
    return { B: value };
  }
  if (Array.isArray(value)) {
    return { L: value.map(toAttribute) };
  }
  if (value instanceof Set) {
    const members: unknown[] = [...value];
    if (members.every((m): m is string => typeof m === "string")) {
      return { SS: members.sort() };
    }
    if (members.every((m): m is Uint8Array => m instanceof Uint8Array)) {
      return { BS: members };
    }
    return { NS: members.map((m) => numberText(Number(m))) };
  }
  return { M: toWire(value) };
}

/** The value of DynamoDB JSON: numbers as numbers, sets as Set. */
export function fromAttribute(value: AttributeValue): Value {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.B !== undefined) return value.B;
  if (value.NULL !== undefined) return null;
  if (value.L !== undefined) return value.L.map(fromAttribute);
  if (value.M !== undefined) return fromWire(value.M);
  if (value.SS !== undefined) return new Set(value.SS);
  if (value.NS !== undefined) return new Set(value.NS.map(Number));
  if (value.BS !== undefined) return new Set(value.BS);
  throw new TypeError("not DynamoDB JSON");
}

// Object.fromEntries makes every name an own property, `__proto__` too.
export function toWire(values: { readonly [name: string]: Value }): Wire {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, toAttribute(value)]),
  );
}

export function fromWire(item: Wire): Item {
  return Object.fromEntries(
    Object.entries(item).map(([name, value]) => [name, fromAttribute(value)]),
  );
}

/** The object's own property: never one every object inherits. */
function own<T extends object, K extends keyof T>(item: T, name: K): T[K] | undefined {
  return Object.hasOwn(item, name) ? item[name] : undefined;
}

/** Sets an own property, even one named `__proto__`. */
function put(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** A value as a string key places it. */
function text(value: string | number | boolean): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  return numberText(value);
}

/** A value a table key needs: no item can lack it. */
function required<T>(value: T | undefined, attribute: string): T {
  if (value === undefined) {
    throw new RangeError(`${attribute} is part of the table key: it needs a value`);
  }
  return value;
}

/** A number zero-padded as a key template's 0Nd or 0N.Mf writes it. */
function padded(value: number, spec: string): string {
  const parsed = /^0?(\d+)(?:\.(\d+)f|d)$/.exec(spec);
  if (parsed === null) {
    throw new RangeError(`unsupported format ${spec}`);
  }
  const width = Number(parsed[1]);
  let digits: string;
  if (parsed[2] === undefined) {
    if (!Number.isInteger(value)) {
      throw new RangeError(`${value} is not a whole number, which ${spec} needs`);
    }
    digits = BigInt(Math.abs(value)).toString();
  } else {
    digits = Math.abs(value).toFixed(Number(parsed[2]));
  }
  const sign = value < 0 ? "-" : "";
  return sign + digits.padStart(width - sign.length, "0");
}

const encoder = new TextEncoder();

function compareBytes(left: Uint8Array, right: Uint8Array): number {
  for (let n = 0; n < Math.min(left.length, right.length); n++) {
    if (left[n] !== right[n]) return (left[n] ?? 0) < (right[n] ?? 0) ? -1 : 1;
  }
  return left.length - right.length;
}

/** A sparse-index condition's comparison, as the design evaluates it: a
 * missing value equals nothing, numbers compare as numbers, text by its
 * UTF-8 bytes. */
function compares(
  actual: Value | undefined,
  operator: string,
  ...values: (string | number)[]
): boolean {
  if (actual === undefined || actual === null) {
    return operator === "!=";
  }
  const outcomes: (number | undefined)[] = values.map((expected) => {
    if (typeof expected === "number") {
      return typeof actual === "number" ? Math.sign(actual - expected) : undefined;
    }
    const shown =
      typeof actual === "string" || typeof actual === "number" ? text(actual) : "";
    return Math.sign(compareBytes(encoder.encode(shown), encoder.encode(expected)));
  });
  if (operator === "in") {
    return outcomes.includes(0);
  }
  const order = outcomes[0];
  if (order === undefined) {
    return operator === "!=";
  }
  switch (operator) {
    case "=":
      return order === 0;
    case "!=":
      return order !== 0;
    case "<":
      return order < 0;
    case "<=":
      return order <= 0;
    case ">":
      return order > 0;
    default:
      return order >= 0;
  }
}

/** Each text key: its name, what it matches, the attributes (and whether
 * each is a number) its placeholders hold. */
type KeyValues = [string, RegExp, [string, boolean][]][];

/** The attribute values an item's keys were rendered from (a projection
 * that leaves the attributes out still has its keys). */
function fromKeys(item: Item, templates: KeyValues): Item {
  const values: Item = {};
  for (const [key, pattern, attributes] of templates) {
    const value = Object.hasOwn(item, key) ? item[key] : undefined;
    const match = typeof value === "string" ? pattern.exec(value) : null;
    if (match === null) continue;
    attributes.forEach(([attribute, numeric], n) => {
      const found = match[n + 1] ?? "";
      if (!Object.hasOwn(values, attribute)) {
        put(values, attribute, numeric ? Number(found) : found);
      }
    });
  }
  return values;
}

/** Whether the item's keys are ones these templates write (null: a number
 * or binary key, any value). */
function matches(item: Item, patterns: Record<string, RegExp | null>): boolean {
  for (const [name, pattern] of Object.entries(patterns)) {
    const value = Object.hasOwn(item, name) ? item[name] : undefined;
    if (value === undefined) return false;
    if (pattern !== null && (typeof value !== "string" || !pattern.test(value))) {
      return false;
    }
  }
  return true;
}

/** Refuses an item of the entity that lacks an attribute it requires
 * (`patterns`: the entity's table key patterns, named by key attribute). */
function complete(
  item: Item,
  entity: string,
  patterns: Record<string, RegExp | null>,
  required: string[],
): void {
  const missing = required.filter((name) => !Object.hasOwn(item, name));
  if (missing.length > 0) {
    const key: Item = {};
    for (const name of Object.keys(patterns)) {
      if (Object.hasOwn(item, name)) put(key, name, item[name]);
    }
    throw new MalformedItem(entity, missing, key, item);
  }
}
"""
