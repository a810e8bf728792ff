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

function data(value, depth = 0) {
  if (depth > MAX_DEPTH) return '[too deep]';
  if (typeof value === 'function') return { __function: value.name || true };
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? String(value) : value;
  }
  if (value.__node) return schemaData(value.__node, depth + 1);
  if (Array.isArray(value)) return value.map((v) => data(v, depth + 1));
  const out = {};
  for (const key of Object.keys(value)) out[key] = data(value[key], depth + 1);
  return out;
}

function schemaData(node, depth) {
  const out = { schema: node.__schema, modifiers: [] };
  if (node.__schema === 'item' || node.__schema === 'map') {
    out.attributes = data(node.args[0] || {}, depth);
  } else {
    out.args = node.args.map((a) => data(a, depth));
  }
  for (const [name, args] of node.modifiers) {
    if ((name === 'link' || name === 'putLink' || name === 'updateLink') && typeof args[0] === 'function') {
      out.modifiers.push([name, [keyValue(args[0])]]);
    } else {
      out.modifiers.push([name, args.map((a) => data(a, depth))]);
    }
  }
  return out;
}

// Every attribute as one short value: a key function that only places its
// attributes gives the template with each replaced by it; one that pads,
// cases or slices them gives something else, and the reader says so.
const PROBE = 'a7';
function probes() {
  return new Proxy({}, { get: (_, name) => (typeof name === 'string' ? PROBE : undefined) });
}

function keyValue(fn) {
  try {
    const value = fn(placeholders());
    let probe = null;
    try {
      probe = data(fn(probes()));
    } catch (error) {
      probe = { error: String(error && error.message) };
    }
    return { value: data(value), probe };
  } catch (error) {
    return { error: String(error && error.message) };
  }
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
        else out[key] = data(spec[key]);
      }
      return out;
    }),
  };
  return { electrodb, toolbox };
}

module.exports = { recorded, schema, report };
