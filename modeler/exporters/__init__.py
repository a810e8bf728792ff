"""Exports of a design for deployment and for other tools: Terraform,
CloudFormation (YAML and JSON), the AWS CLI's create-table JSON, a NoSQL
Workbench model (and its import), per-pattern code and an IAM policy.

Plain Python: nothing here imports Django. Each exporter takes a `Design`
and returns text; `formats.EXPORT_FORMATS` declares each format once, with
its options and notes, and `export_design` and the Export section are both
made from it: a new format or option is an entry there and nothing else.
"""
