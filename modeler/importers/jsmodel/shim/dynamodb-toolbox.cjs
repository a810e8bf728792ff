'use strict';
// Stands in for dynamodb-toolbox (v2, any subpath): records each Table and
// Entity built and the schemas they are given.
const { recorded, schema } = require('../recorder.cjs');

class Table {
  constructor(spec) {
    recorded.toolbox.tables.push({ spec, instance: this });
  }
}
class Entity {
  constructor(spec) {
    recorded.toolbox.entities.push({ spec, instance: this });
  }
}
const builder = (kind) => (...args) => schema(kind, args);
exports.Table = Table;
exports.Entity = Entity;
exports.item = builder('item');
exports.schema = builder('item');
exports.map = builder('map');
exports.string = builder('string');
exports.number = builder('number');
exports.boolean = builder('boolean');
exports.binary = builder('binary');
exports.list = builder('list');
exports.set = builder('set');
exports.record = builder('record');
exports.anyOf = builder('anyOf');
exports.any = builder('any');
exports.nul = builder('null');
exports.s = builder('string');
exports.n = builder('number');
