// Order management (examples/order-management.yaml) as DynamoDB-Toolbox v2
// entities, written from its documentation: the table's keys from
// computeKey, the index keys linked from the attributes (`.link()`), a
// line number zero-padded to three digits, and the sparse index of open
// orders by links that give no value unless the order is open.
import { Table, Entity, item, string, number, map } from "dynamodb-toolbox";

const text = () => ({ type: "string" });
export const OrdersTable = new Table({
  name: "order-management",
  partitionKey: { name: "PK", ...text() },
  sortKey: { name: "SK", ...text() },
  indexes: {
    GSI1: { type: "global", partitionKey: { name: "GSI1PK", ...text() }, sortKey: { name: "GSI1SK", ...text() } },
    GSI2: { type: "global", partitionKey: { name: "GSI2PK", ...text() }, sortKey: { name: "GSI2SK", ...text() } },
    GSI3: { type: "global", partitionKey: { name: "GSI3PK", ...text() }, sortKey: { name: "GSI3SK", ...text() } },
  },
});

const lineNumber = (lineNo) => String(lineNo).padStart(3, "0");

export const CustomerEntity = new Entity({
  name: "Customer",
  table: OrdersTable,
  schema: item({
    customerId: string().key(),
    name: string(),
    email: string(),
    phone: string().optional(),
    createdAt: string(),
    address: map({ street: string(), city: string(), postcode: string() }),
  }).and(() => ({
    GSI1PK: string().link(({ email }) => `EMAIL#${email}`),
    GSI1SK: string().const("PROFILE"),
  })),
  computeKey: ({ customerId }) => ({ PK: `CUST#${customerId}`, SK: "PROFILE" }),
});

const open = (status, value) => (status === "OPEN" ? value : undefined);

export const OrderEntity = new Entity({
  name: "Order",
  table: OrdersTable,
  schema: item({
    customerId: string().key(),
    orderDate: string().key(),
    orderId: string().key(),
    status: string().enum("OPEN", "SHIPPED", "DELIVERED", "CANCELLED"),
    total: number(),
    shippedAt: string().optional(),
  }).and(() => ({
    GSI1PK: string().link(({ customerId, status }) => `CUST#${customerId}#${status}`),
    GSI1SK: string().link(({ orderDate, orderId }) => `ORDER#${orderDate}#${orderId}`),
    GSI2PK: string().optional().link(({ status }) => open(status, "OPEN")),
    GSI2SK: string()
      .optional()
      .link(({ status, orderDate, orderId }) => open(status, `${orderDate}#${orderId}`)),
    GSI3PK: string().link(({ orderId }) => `ORDER#${orderId}`),
    GSI3SK: string().const("#ORDER"),
  })),
  computeKey: ({ customerId, orderDate, orderId }) => ({
    PK: `CUST#${customerId}`,
    SK: `ORDER#${orderDate}#${orderId}`,
  }),
});

export const LineItemEntity = new Entity({
  name: "LineItem",
  table: OrdersTable,
  schema: item({
    orderId: string().key(),
    lineNo: number().key(),
    productId: string(),
    productName: string(),
    quantity: number(),
    price: number(),
  }).and(() => ({
    GSI3PK: string().link(({ orderId }) => `ORDER#${orderId}`),
    GSI3SK: string().link(({ lineNo }) => `ITEM#${lineNumber(lineNo)}`),
  })),
  computeKey: ({ orderId, lineNo }) => ({
    PK: `ORDER#${orderId}`,
    SK: `ITEM#${lineNumber(lineNo)}`,
  }),
});
