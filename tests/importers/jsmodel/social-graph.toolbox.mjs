// The social graph (examples/social-graph.yaml) as DynamoDB-Toolbox v2
// entities, written from its documentation: the table's keys from
// computeKey, the inverted index's keys linked from the edge's ids.
import { Table, Entity, item, string, boolean } from "dynamodb-toolbox";

export const SocialTable = new Table({
  name: "social-graph",
  partitionKey: { name: "PK", type: "string" },
  sortKey: { name: "SK", type: "string" },
  indexes: {
    GSI1: {
      type: "global",
      partitionKey: { name: "GSI1PK", type: "string" },
      sortKey: { name: "GSI1SK", type: "string" },
    },
  },
});

export const UserEntity = new Entity({
  name: "User",
  table: SocialTable,
  schema: item({
    userId: string().key(),
    displayName: string(),
    bio: string().optional(),
    joinedAt: string(),
    verified: boolean().default(false),
  }),
  computeKey: ({ userId }) => ({ PK: `USER#${userId}`, SK: "PROFILE" }),
});

export const FollowEntity = new Entity({
  name: "Follow",
  table: SocialTable,
  schema: item({
    followerId: string().key(),
    followedId: string().key(),
    followerName: string(),
    followedAt: string(),
  }).and(() => ({
    GSI1PK: string().link(({ followedId }) => `USER#${followedId}`),
    GSI1SK: string().link(({ followerId }) => `FOLLOWER#${followerId}`),
  })),
  computeKey: ({ followerId, followedId }) => ({
    PK: `USER#${followerId}`,
    SK: `FOLLOWS#${followedId}`,
  }),
});
