"""DynamoDB's PartiQL: statements parsed (parser) and run as the engine's
own operations (statements, operations)."""
