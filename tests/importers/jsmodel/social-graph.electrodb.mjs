// The social graph (examples/social-graph.yaml) as ElectroDB v3 entities,
// written from ElectroDB's documentation: keys by `template` with
// `casing: "none"`, so the keys are the example's; the inverted index
// projects the follower's name and date, as the example's does.
import { Entity, Service } from "electrodb";

const table = "social-graph";

export const User = new Entity(
  {
    model: { entity: "User", version: "1", service: "social" },
    attributes: {
      userId: { type: "string", required: true },
      displayName: { type: "string", required: true },
      bio: { type: "string" },
      joinedAt: { type: "string", required: true },
      verified: { type: "boolean", default: false },
    },
    indexes: {
      profile: {
        pk: { field: "PK", composite: ["userId"], template: "USER#${userId}", casing: "none" },
        sk: { field: "SK", composite: [], template: "PROFILE", casing: "none" },
      },
    },
  },
  { table },
);

export const Follow = new Entity(
  {
    model: { entity: "Follow", version: "1", service: "social" },
    attributes: {
      followerId: { type: "string", required: true },
      followerName: { type: "string", required: true },
      followedId: { type: "string", required: true },
      followedAt: { type: "string", required: true },
    },
    indexes: {
      following: {
        pk: { field: "PK", composite: ["followerId"], template: "USER#${followerId}", casing: "none" },
        sk: { field: "SK", composite: ["followedId"], template: "FOLLOWS#${followedId}", casing: "none" },
      },
      followers: {
        index: "GSI1",
        projection: ["followerName", "followedAt"],
        pk: { field: "GSI1PK", composite: ["followedId"], template: "USER#${followedId}", casing: "none" },
        sk: { field: "GSI1SK", composite: ["followerId"], template: "FOLLOWER#${followerId}", casing: "none" },
      },
    },
  },
  { table },
);

export const social = new Service({ user: User, follow: Follow });
