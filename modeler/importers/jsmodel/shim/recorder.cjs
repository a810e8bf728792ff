'use strict';
// Records what a module builds with ElectroDB or DynamoDB-Toolbox: the
// recorders in node_modules/electrodb and node_modules/dynamodb-toolbox
// stand in for the libraries and call these. Only data leaves: the runner
// reports the recorded constructor arguments, and the key templates read
// back by calling key functions with a marked placeholder per attribute.

const recorded = {
  electrodb: { entities: [], services: [] },
  toolbox: { tables: [], entities: [] },
};

const OPEN = '\u0001';
const CLOSE = '\u0002';
const MAX_DEPTH = 20;

// An item whose every attribute reads as its placeholder: `USER#${userId}`
// becomes "USER#\u0001117.115...\u0002", read back as USER#{userId}. The
// name is written as its code points so that casing it changes nothing.
function marker(name) {
  return OPEN + Array.from(name, (c) => c.codePointAt(0)).join('.') + CLOSE;
}
function placeholders() {
  return new Proxy(
    {},
    {
      get(_, name) {
        return typeof name === 'string' ? marker(name) : undefined;
      },
    },
  );
}

// Toolbox schema builders: each call and modifier recorded, chainable.
function schema(kind, args) {
  const node = { __schema: kind, args, modifiers: [] };
  const proxy = new Proxy(node, {
    get(target, name) {
      if (name === '__node') return target;
      if (typeof name !== 'string' || name === 'then') return undefined;
      if (name in target) return target[name];
      return (...margs) => {
        if (name === 'and' && kind === 'item') {
          const more = typeof margs[0] === 'function' ? margs[0](proxy) : margs[0];
          const fields = more && more.__node ? more.__node.args[0] : more;
          Object.assign(target.args[0], fields || {});
          return proxy;
        }
        target.modifiers.push([name, margs]);
        return proxy;
      };
    },
  });
  return proxy;
}

// `enums` ([[attribute, values]]) are the entity's enumerated attributes,
// with which a link that gives no value is called again (a sparse index).
function data(value, depth = 0, enums = []) {
  if (depth > MAX_DEPTH) return '[too deep]';
  if (typeof value === 'function') return { __function: value.name || true };
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? String(value) : value;
  }
  if (value.__node) return schemaData(value.__node, depth + 1, enums);
  if (Array.isArray(value)) return value.map((v) => data(v, depth + 1, enums));
  const out = {};
  for (const key of Object.keys(value)) out[key] = data(value[key], depth + 1, enums);
  return out;
}

const LINKS = ['link', 'putLink', 'keyLink', 'updateLink'];
function schemaData(node, depth, enums = []) {
  const out = { schema: node.__schema, modifiers: [] };
  if (node.__schema === 'item' || node.__schema === 'map') {
    out.attributes = data(node.args[0] || {}, depth, enums);
  } else {
    out.args = node.args.map((a) => data(a, depth, enums));
  }
  for (const [name, args] of node.modifiers) {
    if (LINKS.includes(name) && typeof args[0] === 'function') {
      out.modifiers.push([name, [keyValue(args[0], enums)]]);
    } else {
      out.modifiers.push([name, args.map((a) => data(a, depth))]);
    }
  }
  return out;
}

// Every attribute as one short value: a key function that only places its
// attributes gives the template with each replaced by it; one that pads,
// cases or slices them gives something else, and the reader says so. Every
// attribute as '7' tells a number's zero padding ('7'.padStart(3, '0'): 007).
const PROBE = 'a7';
const NUMBER = '7';
function item(value, fixed) {
  return new Proxy(
    {},
    {
      get(_, name) {
        if (typeof name !== 'string') return undefined;
        if (fixed && name === fixed[0]) return fixed[1];
        return value === undefined ? marker(name) : value;
      },
    },
  );
}

function call(fn, fixed) {
  const value = fn(item(undefined, fixed));
  const probe = (given) => {
    try {
      return data(fn(item(given, fixed)));
    } catch (error) {
      return { error: String(error && error.message) };
    }
  };
  return { value: data(value), probe: probe(PROBE), numbers: probe(NUMBER) };
}

function keyValue(fn, enums = []) {
  try {
    const found = call(fn);
    if (found.value !== undefined && found.value !== null) return found;
    // No value for placeholders: called again with each value of each
    // enumerated attribute, a link that gives one only for some is sparse.
    const when = [];
    for (const [name, values] of enums) {
      for (const value of values) {
        let result = null;
        try {
          const given = call(fn, [name, value]);
          if (given.value !== undefined && given.value !== null) result = given;
        } catch (error) {
          result = null;
        }
        when.push([name, value, result]);
      }
    }
    return { value: null, when };
  } catch (error) {
    return { error: String(error && error.message) };
  }
}

// An entity's enumerated attributes ([[name, values]]) from its schema.
function enumsOf(schema) {
  const node = schema && schema.__node;
  const attributes = (node && node.args[0]) || {};
  const out = [];
  for (const [name, attribute] of Object.entries(attributes)) {
    const modifiers = (attribute && attribute.__node && attribute.__node.modifiers) || [];
    for (const [modifier, args] of modifiers) {
      if (modifier === 'enum') out.push([name, args.filter((v) => typeof v === 'string')]);
      if (modifier === 'const' && typeof args[0] === 'string') out.push([name, [args[0]]]);
    }
  }
  return out;
}

// An ElectroDB index's `condition` (a sparse index) read back by calling it
// with each value of each enumerated attribute, the others placeholders.
function conditions(schema) {
  const out = {};
  const indexes = (schema && schema.indexes) || {};
  const attributes = (schema && schema.attributes) || {};
  for (const [access, index] of Object.entries(indexes)) {
    if (!index || typeof index.condition !== 'function') continue;
    const call = (item) => {
      try {
        return index.condition(item) === true;
      } catch (error) {
        return null;
      }
    };
    const probes = [];
    for (const [name, spec] of Object.entries(attributes)) {
      if (!spec || !Array.isArray(spec.type)) continue;
      for (const value of spec.type) {
        const item = new Proxy({}, { get: (_, key) => (key === name ? value : typeof key === 'string' ? marker(key) : undefined) });
        probes.push([name, value, call(item)]);
      }
    }
    out[access] = { base: call(placeholders()), probes };
  }
  return out;
}

function report() {
  const electrodb = {
    entities: recorded.electrodb.entities.map((e) => ({
      schema: data(e.schema),
      config: data(e.config),
      conditions: conditions(e.schema),
    })),
    services: recorded.electrodb.services.map((s) => ({
      entities: Object.fromEntries(
        Object.entries(s.entities || {}).map(([name, entity]) => [
          name,
          recorded.electrodb.entities.findIndex((e) => e.instance === entity),
        ]),
      ),
      config: data(s.config),
    })),
  };
  const tables = recorded.toolbox.tables;
  const toolbox = {
    tables: tables.map((t) => data(t.spec)),
    entities: recorded.toolbox.entities.map((e) => {
      const spec = e.spec || {};
      const out = {};
      for (const key of Object.keys(spec)) {
        if (key === 'table') out.table = tables.findIndex((t) => t.instance === spec.table);
        else if (key === 'computeKey' && typeof spec.computeKey === 'function') out.computeKey = keyValue(spec.computeKey);
        else out[key] = data(spec[key], 0, key === 'schema' ? enumsOf(spec.schema) : []);
      }
      return out;
    }),
  };
  return { electrodb, toolbox };
}

module.exports = { recorded, schema, report };
