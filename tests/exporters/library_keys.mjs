// Puts each sample item's attributes through a generated ElectroDB or
// DynamoDB-Toolbox entity (without sending anything) and prints, as one
// JSON line, how many items it built and each one whose keys differ from
// the design's.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { PutItemCommand } from "dynamodb-toolbox";

const [modulePath, library, casesPath] = process.argv.slice(2);
const { entities } = await import(pathToFileURL(modulePath).href);
const { keys: keyNames, cases } = JSON.parse(readFileSync(casesPath, "utf-8"));

function native(wire) {
  const [[kind, value]] = Object.entries(wire);
  switch (kind) {
    case "S":
    case "BOOL":
      return value;
    case "N":
      return Number(value);
    case "NULL":
      return null;
    case "B":
      return new Uint8Array(Buffer.from(value, "base64"));
    case "L":
      return value.map(native);
    case "M":
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, native(v)]));
    case "SS":
      return new Set(value);
    case "NS":
      return new Set(value.map(Number));
    case "BS":
      return new Set(value.map((b) => new Uint8Array(Buffer.from(b, "base64"))));
  }
  throw new TypeError(`not DynamoDB JSON: ${kind}`);
}

function built(entity, attributes) {
  if (library === "electrodb") return entity.put(attributes).params().Item;
  return entity.build(PutItemCommand).item(attributes).params().Item;
}

const differences = [];
let checked = 0;
for (const { entity, attributes, keys } of cases) {
  const definition = entities[entity];
  if (definition === undefined) continue;
  const values = Object.fromEntries(
    Object.entries(attributes).map(([k, v]) => [k, native(v)]),
  );
  let item;
  try {
    item = built(definition, values);
  } catch (error) {
    differences.push({ entity, attributes, error: String(error) });
    continue;
  }
  checked += 1;
  const made = {};
  for (const name of keyNames) {
    if (item[name] !== undefined) made[name] = String(item[name]);
  }
  const expected = Object.fromEntries(
    Object.entries(keys).map(([k, v]) => [k, String(native(v))]),
  );
  if (JSON.stringify(made, Object.keys(made).sort()) !==
      JSON.stringify(expected, Object.keys(expected).sort())) {
    differences.push({ entity, made, expected });
  }
}
console.log(JSON.stringify({ checked, differences }));
