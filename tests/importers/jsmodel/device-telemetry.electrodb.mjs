// Device telemetry (examples/device-telemetry.yaml) as ElectroDB v3
// entities, written from ElectroDB's documentation: keys by `template`
// with `casing: "none"`, a device's readings sorted by time in its
// collection, LSI1 sorting the same collection by metric, and GSI1 spreading
// each day over ten write shards (`shard`, a number from 0 to 9).
// ElectroDB queries an index by its name and does not say whether it is
// local: LSI1 is declared like any index on the table's partition key.
// It states no time to live either (the example's expiresAt).
import { Entity, Service } from "electrodb";

const table = "device-telemetry";
const key = (field, template, composite) => ({ field, template, composite, casing: "none" });
// The device's item collection, shared by both entities.
const device = () => key("PK", "DEVICE#${deviceId}", ["deviceId"]);

export const Device = new Entity(
  {
    model: { entity: "Device", version: "1", service: "telemetry" },
    attributes: {
      deviceId: { type: "string", required: true },
      model: { type: ["TH-100", "TH-200", "AQ-10", "PW-3"], required: true },
      site: { type: "string", required: true },
      installedAt: { type: "string", required: true },
      firmware: { type: ["1.4.2", "2.0.1", "2.1.0"], required: true },
    },
    indexes: {
      details: { pk: device(), sk: key("SK", "META", []) },
      // A device lists none of the readings' value and unit: its LSI1
      // entry holds its keys only.
      byMetric: { index: "LSI1", projection: "keys_only", pk: device(), sk: key("LSI1SK", "META", []) },
    },
  },
  { table },
);

export const Reading = new Entity(
  {
    model: { entity: "Reading", version: "1", service: "telemetry" },
    attributes: {
      deviceId: { type: "string", required: true },
      day: { type: "string", required: true },
      clock: { type: "string", required: true },
      readingAt: { type: "string", required: true },
      metric: { type: ["temperature", "humidity", "co2", "power"], required: true },
      value: { type: "number", required: true },
      unit: { type: ["C", "%", "ppm", "W"], required: true },
      shard: { type: "number", required: true },
      expiresAt: { type: "number", required: true },
    },
    indexes: {
      readings: { pk: device(), sk: key("SK", "READING#${readingAt}", ["readingAt"]) },
      byMetric: {
        index: "LSI1",
        projection: ["value", "unit"],
        pk: device(),
        sk: key("LSI1SK", "METRIC#${metric}#${readingAt}", ["metric", "readingAt"]),
      },
      dayShard: {
        index: "GSI1",
        projection: ["deviceId", "readingAt", "metric", "value", "unit"],
        pk: key("GSI1PK", "DAY#${day}#${shard}", ["day", "shard"]),
        sk: key("GSI1SK", "${readingAt}#${deviceId}", ["readingAt", "deviceId"]),
      },
    },
  },
  { table },
);

export const telemetry = new Service({ device: Device, reading: Reading });
