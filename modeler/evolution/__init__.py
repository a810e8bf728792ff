"""Migrations: from one design (the deployed one) to the next, planned,
scripted and proven. A Django-free package (not Django's `migrations/`):
`plan` classifies and orders the steps with their costs, `script` writes
the item rewrite as a runnable boto3 script (its logic is `runtime`),
`iac` the table changes in the order DynamoDB accepts them, and `proof`
runs the rewrite on the old design's sample data in the engine and the new
design's access patterns on the result."""
