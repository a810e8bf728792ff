// The order-management TypeScript module's writes, run against an endpoint
// (compiled beside it): prints one JSON line of what it saw.
const { CreateTableCommand, DynamoDBClient, GetItemCommand } = require("@aws-sdk/client-dynamodb");
const fs = require("node:fs");
const access = require("./order-management-access");

async function main() {
  const client = new DynamoDBClient({
    endpoint: process.argv[2],
    region: "us-east-1",
    credentials: { accessKeyId: "test", secretAccessKey: "test" },
  });
  await client.send(new CreateTableCommand(JSON.parse(fs.readFileSync(process.argv[3], "utf-8"))));
  const seen = {};
  const order = { customerId: "C1", orderId: "O1", orderDate: "2025-03-01", status: "OPEN", total: 12.5 };
  const line = { orderId: "O1", lineNo: 7, productId: "P", productName: "Pen", quantity: 1, price: 2.5 };
  await access.placeAnOrderWithItsLineItems(client, { order, lineItems: [line] });
  try {
    await access.placeAnOrderWithItsLineItems(client, { order, lineItems: [] });
    seen.secondPlace = "written";
  } catch (error) {
    seen.secondPlace = [error.constructor.name, error.conditionFailed];
  }
  const open = await access.allOpenOrdersOldestFirstPage(client);
  seen.openBefore = open.items.map((o) => o.orderId);
  seen.lines = [];
  for await (const found of access.orderWithItsLineItems(client, { orderId: "O1" })) {
    seen.lines.push(found.entity === "LineItem" ? found.item.lineNo : found.item.orderId);
  }
  await access.shipAnOrder(client, { customerId: "C1", orderDate: "2025-03-01", orderId: "O1", shippedAt: "2025-03-02" });
  const stored = await client.send(new GetItemCommand({
    TableName: access.TABLE_NAME,
    Key: access.toWire(access.orderTableKey(order)),
  }));
  seen.storedKeys = Object.keys(stored.Item).filter((k) => /^(PK|SK|GSI)/.test(k)).sort();
  seen.gsi1pk = stored.Item.GSI1PK.S;
  seen.openAfter = (await access.allOpenOrdersOldestFirstPage(client)).items.length;
  try {
    await access.shipAnOrder(client, { customerId: "C1", orderDate: "2025-03-01", orderId: "O1", shippedAt: "2025-03-03" });
    seen.secondShip = "written";
  } catch (error) {
    seen.secondShip = error.constructor.name;
  }
  console.log(JSON.stringify(seen));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
