// Device telemetry (examples/device-telemetry.yaml) as DynamoDB-Toolbox v2
// entities, written from its documentation: the table's keys from
// computeKey, the local index LSI1 (the table's partition key, its own sort
// key) and GSI1 declared on the table, and the index keys linked from the
// attributes (`.link()`): LSI1 sorts a device's readings by metric, GSI1
// spreads each day over ten write shards (`shard`, a number from 0 to 9).
// Toolbox states no projection and no time to live (the example's
// expiresAt is a plain number here).
import { Table, Entity, item, string, number } from "dynamodb-toolbox";

const text = () => ({ type: "string" });
export const TelemetryTable = new Table({
  name: "device-telemetry",
  partitionKey: { name: "PK", ...text() },
  sortKey: { name: "SK", ...text() },
  indexes: {
    LSI1: { type: "local", sortKey: { name: "LSI1SK", ...text() } },
    GSI1: { type: "global", partitionKey: { name: "GSI1PK", ...text() }, sortKey: { name: "GSI1SK", ...text() } },
  },
});

export const DeviceEntity = new Entity({
  name: "Device",
  table: TelemetryTable,
  schema: item({
    deviceId: string().key(),
    model: string().enum("TH-100", "TH-200", "AQ-10", "PW-3"),
    site: string(),
    installedAt: string(),
    firmware: string().enum("1.4.2", "2.0.1", "2.1.0"),
  }).and(() => ({
    LSI1SK: string().const("META"),
  })),
  computeKey: ({ deviceId }) => ({ PK: `DEVICE#${deviceId}`, SK: "META" }),
});

export const ReadingEntity = new Entity({
  name: "Reading",
  table: TelemetryTable,
  schema: item({
    deviceId: string().key(),
    readingAt: string().key(),
    day: string(),
    clock: string(),
    metric: string().enum("temperature", "humidity", "co2", "power"),
    value: number(),
    unit: string().enum("C", "%", "ppm", "W"),
    shard: number(),
    expiresAt: number(),
  }).and(() => ({
    LSI1SK: string().link(({ metric, readingAt }) => `METRIC#${metric}#${readingAt}`),
    GSI1PK: string().link(({ day, shard }) => `DAY#${day}#${shard}`),
    GSI1SK: string().link(({ readingAt, deviceId }) => `${readingAt}#${deviceId}`),
  })),
  computeKey: ({ deviceId, readingAt }) => ({
    PK: `DEVICE#${deviceId}`,
    SK: `READING#${readingAt}`,
  }),
});
