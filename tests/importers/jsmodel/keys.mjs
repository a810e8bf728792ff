// Builds each item's keys with the REAL library (electrodb or
// dynamodb-toolbox from tests/node) and the module argv[2]: reads
// [{entity, item}] on stdin, writes the items as the library would put them.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const model = await import(pathToFileURL(process.argv[2]).href);
const items = JSON.parse(readFileSync(0, "utf8"));
const library = process.argv[3];
const entities = {};
if (library === "electrodb") {
  for (const value of Object.values(model)) {
    const name = value?.schema?.model?.entity;
    if (name) entities[name] = value;
  }
} else {
  const { PutItemCommand } = await import("dynamodb-toolbox");
  for (const value of Object.values(model)) {
    if (value?.entityName) entities[value.entityName] = value;
  }
  entities.__put = PutItemCommand;
}
const out = items.map(({ entity, item }) => {
  const built = entities[entity];
  if (!built) throw new Error(`no entity ${entity} in the module`);
  if (library === "electrodb") return built.put(item).params().Item;
  return built.build(entities.__put).item(item).params().Item;
});
process.stdout.write(JSON.stringify(out));
