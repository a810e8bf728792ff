"""Exports of a design for deployment and for other tools: Terraform,
CloudFormation (YAML and JSON), the AWS CLI's create-table JSON, a NoSQL
Workbench model (and its import), per-pattern code and an IAM policy.

Plain Python: nothing here imports Django. Each exporter takes a `Design`
and returns text; `formats.EXPORT_FORMATS` lists them for the commands and
the Export section.
"""
