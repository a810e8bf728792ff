// The AWS SDK for JavaScript v3 against serve_dynamodb: each check drives
// the endpoint through the SDK's own clients and asserts what the SDK hands
// back (parsed shapes, exception classes, the CRC32 it read the body under).
// One JSON line per check on stdout: {"check": name, "ok": bool, "detail": text}.
//
//   node tests/endpoint/sdk_v3_checks.mjs http://127.0.0.1:PORT
// (run with tests/node/node_modules on NODE_PATH, as test_sdk_v3.py does).

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { crc32 } from "node:zlib";

// ES modules ignore NODE_PATH: resolve the SDK through require, which reads it.
const require = createRequire(import.meta.url);
const ddbModule = require("@aws-sdk/client-dynamodb");
const streamsModule = require("@aws-sdk/client-dynamodb-streams");
const {
  DynamoDBClient,
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  ListTablesCommand,
  PutItemCommand,
  GetItemCommand,
  UpdateItemCommand,
  DeleteItemCommand,
  QueryCommand,
  ScanCommand,
  BatchGetItemCommand,
  BatchWriteItemCommand,
  TransactWriteItemsCommand,
  UpdateTimeToLiveCommand,
  DescribeTimeToLiveCommand,
  TagResourceCommand,
  UntagResourceCommand,
  ListTagsOfResourceCommand,
  ExecuteStatementCommand,
  BatchExecuteStatementCommand,
  ExecuteTransactionCommand,
} = ddbModule;
const {
  DynamoDBStreamsClient,
  ListStreamsCommand,
  DescribeStreamCommand,
  GetShardIteratorCommand,
  GetRecordsCommand,
} = streamsModule;

const endpoint = process.argv[2];
const config = {
  endpoint,
  region: "eu-west-3",
  credentials: { accessKeyId: "anything", secretAccessKey: "anything" },
  maxAttempts: 1,
};
const ddb = new DynamoDBClient(config);
const streams = new DynamoDBStreamsClient(config);

// Every response's CRC32 header beside the CRC32 of the body as received,
// recorded before the SDK deserializes it (low priority: inside its deserializer).
const crcs = [];
ddb.middlewareStack.add(
  (next) => async (args) => {
    const result = await next(args);
    const response = result.response;
    const chunks = [];
    for await (const chunk of response.body) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    crcs.push({ header: response.headers["x-amz-crc32"], body: crc32(body) >>> 0 });
    const { Readable } = await import("node:stream");
    response.body = Readable.from([body]);
    return result;
  },
  { step: "deserialize", name: "recordCrc32", priority: "low" },
);

const S = (s) => ({ S: s });
const N = (n) => ({ N: String(n) });
const key = (pk, sk) => ({ PK: S(pk), SK: S(sk) });
const KEYS = {
  AttributeDefinitions: [
    { AttributeName: "PK", AttributeType: "S" },
    { AttributeName: "SK", AttributeType: "S" },
  ],
  KeySchema: [
    { AttributeName: "PK", KeyType: "HASH" },
    { AttributeName: "SK", KeyType: "RANGE" },
  ],
  BillingMode: "PAY_PER_REQUEST",
};

async function refused(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("the call succeeded; an error was expected");
}

async function until(what, condition) {
  // Bounded by count, not time: the server builds an index in about a second.
  for (let n = 0; n < 400; n++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`never became true: ${what}`);
}

const checks = {
  async "create and describe a table"() {
    const created = await ddb.send(
      new CreateTableCommand({
        TableName: "Shop",
        ...KEYS,
        StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
      }),
    );
    assert.equal(created.TableDescription.TableName, "Shop");
    assert.ok(created.TableDescription.CreationDateTime instanceof Date);
    const described = (await ddb.send(new DescribeTableCommand({ TableName: "Shop" }))).Table;
    assert.equal(described.TableStatus, "ACTIVE");
    assert.equal(described.BillingModeSummary.BillingMode, "PAY_PER_REQUEST");
    assert.ok((await ddb.send(new ListTablesCommand({}))).TableNames.includes("Shop"));
  },

  async "put, get, update and delete with conditions and ReturnValues"() {
    const put = await ddb.send(
      new PutItemCommand({
        TableName: "Shop",
        Item: { ...key("C#1", "O#1"), price: N(10) },
        ReturnValues: "ALL_OLD",
        ReturnConsumedCapacity: "TOTAL",
      }),
    );
    assert.equal(put.Attributes, undefined);
    assert.deepEqual(put.ConsumedCapacity, { TableName: "Shop", CapacityUnits: 1 });
    const replaced = await ddb.send(
      new PutItemCommand({
        TableName: "Shop",
        Item: { ...key("C#1", "O#1"), price: N(12) },
        ConditionExpression: "price = :ten",
        ExpressionAttributeValues: { ":ten": N(10) },
        ReturnValues: "ALL_OLD",
      }),
    );
    assert.deepEqual(replaced.Attributes, { ...key("C#1", "O#1"), price: N(10) });
    const failed = await refused(
      ddb.send(
        new PutItemCommand({
          TableName: "Shop",
          Item: key("C#1", "O#1"),
          ConditionExpression: "attribute_not_exists(PK)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      ),
    );
    assert.equal(failed.name, "ConditionalCheckFailedException");
    assert.ok(failed instanceof ddbModule.ConditionalCheckFailedException);
    assert.equal(failed.message, "The conditional request failed");
    assert.equal(failed.$metadata.httpStatusCode, 400);
    assert.deepEqual(failed.Item, { ...key("C#1", "O#1"), price: N(12) });
    const updated = await ddb.send(
      new UpdateItemCommand({
        TableName: "Shop",
        Key: key("C#1", "O#1"),
        UpdateExpression: "SET price = price + :one, #s = :s",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":one": N(1), ":s": S("OPEN") },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    assert.deepEqual(updated.Attributes, { price: N(13), status: S("OPEN") });
    const got = await ddb.send(
      new GetItemCommand({
        TableName: "Shop",
        Key: key("C#1", "O#1"),
        ProjectionExpression: "price",
        ConsistentRead: true,
      }),
    );
    assert.deepEqual(got.Item, { price: N(13) });
    const deleted = await ddb.send(
      new DeleteItemCommand({
        TableName: "Shop",
        Key: key("C#1", "O#1"),
        ConditionExpression: "#s = :s",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":s": S("OPEN") },
        ReturnValues: "ALL_OLD",
      }),
    );
    assert.deepEqual(deleted.Attributes.price, N(13));
    const gone = await ddb.send(new GetItemCommand({ TableName: "Shop", Key: key("C#1", "O#1") }));
    assert.equal(gone.Item, undefined);
  },

  async "batch write and batch get"() {
    const puts = [];
    for (let n = 0; n < 25; n++) {
      puts.push({ PutRequest: { Item: { ...key("C#2", `O#${String(n).padStart(2, "0")}`), n: N(n) } } });
    }
    const written = await ddb.send(new BatchWriteItemCommand({ RequestItems: { Shop: puts } }));
    assert.deepEqual(written.UnprocessedItems, {});
    const keys = [0, 7, 24].map((n) => key("C#2", `O#${String(n).padStart(2, "0")}`));
    keys.push(key("C#2", "none"));
    const got = await ddb.send(new BatchGetItemCommand({ RequestItems: { Shop: { Keys: keys } } }));
    assert.deepEqual(got.UnprocessedKeys, {});
    assert.deepEqual(got.Responses.Shop.map((item) => item.n.N).sort(), ["0", "24", "7"]);
  },

  async "query pages with Limit and LastEvaluatedKey, both directions"() {
    const seen = [];
    let start;
    let pages = 0;
    do {
      const page = await ddb.send(
        new QueryCommand({
          TableName: "Shop",
          KeyConditionExpression: "PK = :pk AND begins_with(SK, :o)",
          ExpressionAttributeValues: { ":pk": S("C#2"), ":o": S("O#") },
          Limit: 10,
          ExclusiveStartKey: start,
        }),
      );
      seen.push(...page.Items.map((item) => Number(item.n.N)));
      start = page.LastEvaluatedKey;
      pages += 1;
    } while (start);
    assert.deepEqual(seen, [...Array(25).keys()]);
    // 10, 10, 5: the last page is short, so no LastEvaluatedKey follows it.
    assert.equal(pages, 3);
    const backwards = await ddb.send(
      new QueryCommand({
        TableName: "Shop",
        KeyConditionExpression: "PK = :pk",
        ExpressionAttributeValues: { ":pk": S("C#2"), ":min": N(20) },
        FilterExpression: "n >= :min",
        ScanIndexForward: false,
      }),
    );
    assert.deepEqual(backwards.Items.map((item) => item.n.N), ["24", "23", "22", "21", "20"]);
    assert.equal(backwards.ScannedCount, 25);
  },

  async "scan segments cover the table once"() {
    const seen = [];
    for (let segment = 0; segment < 3; segment++) {
      const page = await ddb.send(
        new ScanCommand({ TableName: "Shop", Segment: segment, TotalSegments: 3 }),
      );
      seen.push(...page.Items.map((item) => item.SK.S));
    }
    assert.equal(seen.length, 25);
    assert.equal(new Set(seen).size, 25);
    const wrong = await refused(
      ddb.send(new ScanCommand({ TableName: "Shop", Segment: 3, TotalSegments: 3 })),
    );
    assert.equal(wrong.name, "ValidationException");
  },

  async "a cancelled transaction names its reasons and writes nothing"() {
    const failed = await refused(
      ddb.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: "Shop", Item: { ...key("C#3", "A"), n: N(1) } } },
            {
              ConditionCheck: {
                TableName: "Shop",
                Key: key("C#2", "O#00"),
                ConditionExpression: "n = :nine",
                ExpressionAttributeValues: { ":nine": N(9) },
                ReturnValuesOnConditionCheckFailure: "ALL_OLD",
              },
            },
          ],
        }),
      ),
    );
    assert.equal(failed.name, "TransactionCanceledException");
    assert.ok(failed instanceof ddbModule.TransactionCanceledException);
    assert.match(failed.message, /^Transaction cancelled, please refer cancellation reasons/);
    assert.equal(failed.CancellationReasons.length, 2);
    assert.equal(failed.CancellationReasons[0].Code, "None");
    assert.equal(failed.CancellationReasons[1].Code, "ConditionalCheckFailed");
    assert.deepEqual(failed.CancellationReasons[1].Item.n, N(0));
    const got = await ddb.send(new GetItemCommand({ TableName: "Shop", Key: key("C#3", "A") }));
    assert.equal(got.Item, undefined);
    await ddb.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          { Put: { TableName: "Shop", Item: { ...key("C#3", "A"), n: N(1) } } },
          { Delete: { TableName: "Shop", Key: key("C#2", "O#24") } },
        ],
      }),
    );
    const after = await ddb.send(new GetItemCommand({ TableName: "Shop", Key: key("C#3", "A") }));
    assert.deepEqual(after.Item.n, N(1));
    await ddb.send(new PutItemCommand({ TableName: "Shop", Item: { ...key("C#2", "O#24"), n: N(24) } }));
  },

  async "binaries and numbers round-trip exactly"() {
    const bytes = Uint8Array.from([0, 1, 2, 250, 255, 10, 13]);
    const item = {
      ...key("C#4", "bin"),
      blob: { B: bytes },
      blobs: { BS: [Uint8Array.from([1]), Uint8Array.from([2, 3])] },
      big: N("12345678901234567890123456789012345678"),
      tiny: N("0.000000000000000000000000000000000000001"),
      negative: N("-9.5"),
      numbers: { NS: ["1", "2.5", "-3"] },
    };
    await ddb.send(new PutItemCommand({ TableName: "Shop", Item: item }));
    const got = (await ddb.send(new GetItemCommand({ TableName: "Shop", Key: key("C#4", "bin") }))).Item;
    assert.ok(got.blob.B instanceof Uint8Array);
    assert.deepEqual([...got.blob.B], [...bytes]);
    assert.deepEqual(got.blobs.BS.map((b) => [...b]).sort(), [[1], [2, 3]]);
    assert.equal(got.big.N, "12345678901234567890123456789012345678");
    assert.equal(got.tiny.N, "0.000000000000000000000000000000000000001");
    assert.equal(got.negative.N, "-9.5");
    assert.deepEqual([...got.numbers.NS].sort(), ["-3", "1", "2.5"]);
    const query = await ddb.send(
      new QueryCommand({
        TableName: "Shop",
        KeyConditionExpression: "PK = :pk",
        FilterExpression: "#b = :b",
        ExpressionAttributeNames: { "#b": "blob" },
        ExpressionAttributeValues: { ":pk": S("C#4"), ":b": { B: bytes } },
      }),
    );
    assert.equal(query.Count, 1);
  },

  async "errors arrive as the SDK's exception classes"() {
    const missing = await refused(
      ddb.send(new GetItemCommand({ TableName: "Nowhere", Key: key("a", "b") })),
    );
    assert.equal(missing.name, "ResourceNotFoundException");
    assert.ok(missing instanceof ddbModule.ResourceNotFoundException);
    assert.equal(missing.message, "Requested resource not found");
    assert.equal(missing.$metadata.httpStatusCode, 400);
    assert.match(missing.$metadata.requestId, /^[A-Z0-9]{52}$/);
    const invalid = await refused(
      ddb.send(new GetItemCommand({ TableName: "Shop", Key: { PK: S("a") } })),
    );
    assert.equal(invalid.name, "ValidationException");
    assert.equal(invalid.message, "The provided key element does not match the schema");
    const exists = await refused(ddb.send(new CreateTableCommand({ TableName: "Shop", ...KEYS })));
    assert.equal(exists.name, "ResourceInUseException");
    assert.ok(exists instanceof ddbModule.ResourceInUseException);
  },

  async "every response's CRC32 header matches its body"() {
    assert.ok(crcs.length > 10, `only ${crcs.length} responses recorded`);
    for (const { header, body } of crcs) {
      assert.equal(header, String(body));
    }
  },

  async "an index is CREATING, then ACTIVE and queried"() {
    const changed = await ddb.send(
      new UpdateTableCommand({
        TableName: "Shop",
        AttributeDefinitions: [{ AttributeName: "n", AttributeType: "N" }],
        GlobalSecondaryIndexUpdates: [
          {
            Create: {
              IndexName: "ByNumber",
              KeySchema: [{ AttributeName: "n", KeyType: "HASH" }],
              Projection: { ProjectionType: "KEYS_ONLY" },
            },
          },
        ],
      }),
    );
    assert.equal(changed.TableDescription.TableStatus, "UPDATING");
    assert.equal(changed.TableDescription.GlobalSecondaryIndexes[0].IndexStatus, "CREATING");
    const second = await refused(
      ddb.send(
        new UpdateTableCommand({
          TableName: "Shop",
          GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: "ByNumber" } }],
        }),
      ),
    );
    assert.equal(second.name, "LimitExceededException");
    await until("the index is ACTIVE", async () => {
      const table = (await ddb.send(new DescribeTableCommand({ TableName: "Shop" }))).Table;
      return table.GlobalSecondaryIndexes[0].IndexStatus === "ACTIVE";
    });
    const found = await ddb.send(
      new QueryCommand({
        TableName: "Shop",
        IndexName: "ByNumber",
        KeyConditionExpression: "n = :seven",
        ExpressionAttributeValues: { ":seven": N(7) },
      }),
    );
    assert.deepEqual(found.Items, [{ ...key("C#2", "O#07"), n: N(7) }]);
  },

  async "time to live and tags"() {
    const ttl = await ddb.send(
      new UpdateTimeToLiveCommand({
        TableName: "Shop",
        TimeToLiveSpecification: { Enabled: true, AttributeName: "expires" },
      }),
    );
    assert.deepEqual(ttl.TimeToLiveSpecification, { Enabled: true, AttributeName: "expires" });
    const described = await ddb.send(new DescribeTimeToLiveCommand({ TableName: "Shop" }));
    assert.equal(described.TimeToLiveDescription.TimeToLiveStatus, "ENABLED");
    assert.equal(described.TimeToLiveDescription.AttributeName, "expires");
    const arn = (await ddb.send(new DescribeTableCommand({ TableName: "Shop" }))).Table.TableArn;
    await ddb.send(
      new TagResourceCommand({
        ResourceArn: arn,
        Tags: [
          { Key: "team", Value: "orders" },
          { Key: "stage", Value: "dev" },
        ],
      }),
    );
    await ddb.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: ["stage"] }));
    const tags = await ddb.send(new ListTagsOfResourceCommand({ ResourceArn: arn }));
    assert.deepEqual(tags.Tags, [{ Key: "team", Value: "orders" }]);
  },

  async "PartiQL statements, batches and transactions"() {
    await ddb.send(
      new ExecuteStatementCommand({
        Statement: "INSERT INTO Shop VALUE {'PK': ?, 'SK': ?, 'total': ?}",
        Parameters: [S("C#5"), S("O#1"), N(5)],
      }),
    );
    const selected = await ddb.send(
      new ExecuteStatementCommand({
        Statement: 'SELECT total FROM "Shop" WHERE PK = ? AND SK = ?',
        Parameters: [S("C#5"), S("O#1")],
      }),
    );
    assert.deepEqual(selected.Items, [{ total: N(5) }]);
    const batch = await ddb.send(
      new BatchExecuteStatementCommand({
        Statements: [
          { Statement: "SELECT * FROM Shop WHERE PK = 'C#5' AND SK = 'O#1'" },
          { Statement: "INSERT INTO Shop VALUE {'PK': 'C#5', 'SK': 'O#1'}" },
        ],
      }),
    );
    assert.deepEqual(batch.Responses[0].Item.total, N(5));
    assert.equal(batch.Responses[1].Error.Code, "DuplicateItem");
    const failed = await refused(
      ddb.send(
        new ExecuteTransactionCommand({
          TransactStatements: [
            { Statement: "UPDATE Shop SET total = 6 WHERE PK = 'C#5' AND SK = 'O#1'" },
            { Statement: "INSERT INTO Shop VALUE {'PK': 'C#2', 'SK': 'O#00'}" },
          ],
        }),
      ),
    );
    assert.equal(failed.name, "TransactionCanceledException");
    assert.deepEqual(
      failed.CancellationReasons.map((reason) => reason.Code),
      ["None", "DuplicateItem"],
    );
    const unparsed = await refused(ddb.send(new ExecuteStatementCommand({ Statement: "SELEKT *" })));
    assert.equal(unparsed.name, "ValidationException");
  },

  async "stream records through the Streams client"() {
    const listed = await streams.send(new ListStreamsCommand({ TableName: "Shop" }));
    assert.equal(listed.Streams.length, 1);
    const arn = listed.Streams[0].StreamArn;
    const description = (await streams.send(new DescribeStreamCommand({ StreamArn: arn })))
      .StreamDescription;
    assert.equal(description.StreamViewType, "NEW_AND_OLD_IMAGES");
    assert.equal(description.StreamStatus, "ENABLED");
    const shard = description.Shards[0];
    const iterator = (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shard.ShardId,
          ShardIteratorType: "TRIM_HORIZON",
        }),
      )
    ).ShardIterator;
    const got = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 3 }));
    assert.deepEqual(
      got.Records.map((record) => record.eventName),
      ["INSERT", "MODIFY", "MODIFY"],
    );
    const first = got.Records[0];
    assert.equal(first.eventSource, "aws:dynamodb");
    assert.ok(first.dynamodb.ApproximateCreationDateTime instanceof Date);
    assert.deepEqual(first.dynamodb.Keys, key("C#1", "O#1"));
    assert.deepEqual(got.Records[1].dynamodb.OldImage.price, N(10));
    assert.deepEqual(got.Records[1].dynamodb.NewImage.price, N(12));
    assert.ok(got.NextShardIterator);
    const latest = (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: arn,
          ShardId: shard.ShardId,
          ShardIteratorType: "LATEST",
        }),
      )
    ).ShardIterator;
    await ddb.send(new DeleteItemCommand({ TableName: "Shop", Key: key("C#5", "O#1") }));
    const fresh = await streams.send(new GetRecordsCommand({ ShardIterator: latest }));
    assert.deepEqual(
      fresh.Records.map((record) => [record.eventName, record.dynamodb.Keys.PK.S]),
      [["REMOVE", "C#5"]],
    );
    const expired = await refused(
      streams.send(new GetRecordsCommand({ ShardIterator: "not an iterator" })),
    );
    assert.equal(expired.name, "ValidationException");
  },
};

// In order: each check builds on the table the earlier ones left.
for (const [check, run] of Object.entries(checks)) {
  let detail = "";
  let ok = true;
  try {
    await run();
  } catch (error) {
    ok = false;
    detail = `${error.name}: ${error.message}`;
  }
  process.stdout.write(JSON.stringify({ check, ok, detail }) + "\n");
}
