'use strict';
// Stands in for electrodb: records each Entity and Service built.
const { recorded } = require('../recorder.cjs');

class Entity {
  constructor(schema, config) {
    recorded.electrodb.entities.push({ schema, config, instance: this });
  }
}
class Service {
  constructor(entities, config) {
    recorded.electrodb.services.push({ entities, config, instance: this });
  }
}
function createCustomAttribute() {
  return 'string';
}
function CustomAttributeType() {
  return 'any';
}
exports.Entity = Entity;
exports.Service = Service;
exports.createCustomAttribute = createCustomAttribute;
exports.CustomAttributeType = CustomAttributeType;
