// Order management (examples/order-management.yaml) as ElectroDB v3
// entities, written from ElectroDB's documentation: keys by `template`
// with `casing: "none"`, a line number zero-padded to three digits, and the
// sparse index of open orders by an index `condition`; each index's
// projection as the example's (GSI1 INCLUDE, GSI2 KEYS_ONLY, GSI3 ALL).
import { Entity, Service } from "electrodb";

const table = "order-management";
// GSI1 is shared by customers and orders: an entity lists only its own
// attributes, so customers project their keys and orders the four.
const key = (field, template, composite) => ({ field, template, composite, casing: "none" });

export const Customer = new Entity(
  {
    model: { entity: "Customer", version: "1", service: "commerce" },
    attributes: {
      customerId: { type: "string", required: true },
      name: { type: "string", required: true },
      email: { type: "string", required: true },
      phone: { type: "string" },
      createdAt: { type: "string", required: true },
      address: {
        type: "map",
        properties: { street: { type: "string" }, city: { type: "string" }, postcode: { type: "string" } },
      },
    },
    indexes: {
      profile: {
        pk: key("PK", "CUST#${customerId}", ["customerId"]),
        sk: key("SK", "PROFILE", []),
      },
      byEmail: {
        index: "GSI1",
        projection: "keys_only",
        pk: key("GSI1PK", "EMAIL#${email}", ["email"]),
        sk: key("GSI1SK", "PROFILE", []),
      },
    },
  },
  { table },
);

export const Order = new Entity(
  {
    model: { entity: "Order", version: "1", service: "commerce" },
    attributes: {
      customerId: { type: "string", required: true },
      orderId: { type: "string", required: true },
      orderDate: { type: "string", required: true },
      status: { type: ["OPEN", "SHIPPED", "DELIVERED", "CANCELLED"], required: true },
      total: { type: "number", required: true },
      shippedAt: { type: "string" },
    },
    indexes: {
      orders: {
        pk: key("PK", "CUST#${customerId}", ["customerId"]),
        sk: key("SK", "ORDER#${orderDate}#${orderId}", ["orderDate", "orderId"]),
      },
      byStatus: {
        index: "GSI1",
        projection: ["orderDate", "status", "total", "shippedAt"],
        pk: key("GSI1PK", "CUST#${customerId}#${status}", ["customerId", "status"]),
        sk: key("GSI1SK", "ORDER#${orderDate}#${orderId}", ["orderDate", "orderId"]),
      },
      open: {
        index: "GSI2",
        projection: "keys_only",
        condition: (attributes) => attributes.status === "OPEN",
        pk: key("GSI2PK", "OPEN", []),
        sk: key("GSI2SK", "${orderDate}#${orderId}", ["orderDate", "orderId"]),
      },
      order: {
        index: "GSI3",
        projection: "all",
        pk: key("GSI3PK", "ORDER#${orderId}", ["orderId"]),
        sk: key("GSI3SK", "#ORDER", []),
      },
    },
  },
  { table },
);

export const LineItem = new Entity(
  {
    model: { entity: "LineItem", version: "1", service: "commerce" },
    attributes: {
      orderId: { type: "string", required: true },
      lineNo: { type: "number", required: true, padding: { length: 3, char: "0" } },
      productId: { type: "string", required: true },
      productName: { type: "string", required: true },
      quantity: { type: "number", required: true },
      price: { type: "number", required: true },
    },
    indexes: {
      lines: {
        pk: key("PK", "ORDER#${orderId}", ["orderId"]),
        sk: key("SK", "ITEM#${lineNo}", ["lineNo"]),
      },
      order: {
        index: "GSI3",
        pk: key("GSI3PK", "ORDER#${orderId}", ["orderId"]),
        sk: key("GSI3SK", "ITEM#${lineNo}", ["lineNo"]),
      },
    },
  },
  { table },
);

export const commerce = new Service({ customer: Customer, order: Order, lineItem: LineItem });
