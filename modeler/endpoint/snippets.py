"""How to run the endpoint for one design and talk to it: the command and
connection snippets (boto3, the AWS SDK for JavaScript v3, the AWS CLI)
that work as pasted, shown in the Export section."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass

from modeler.design import model as d

DEFAULT_ADDRESS = "127.0.0.1:8000"
# Any credentials and region are accepted; the SDKs refuse to sign without some.
REGION = "us-east-1"
CREDENTIAL = "local"


@dataclass(frozen=True)
class EndpointSnippets:
    command: str
    python: str
    javascript: str
    cli: str


def endpoint_snippets(
    design: d.Design, *, project: str, address: str = DEFAULT_ADDRESS
) -> EndpointSnippets:
    """`project`: what the command is given to find the design (a project's
    id, or a design file)."""
    url = f"http://{address}"
    table = design.table.name
    python = f"""import boto3

dynamodb = boto3.client(
    "dynamodb",
    endpoint_url={json.dumps(url)},
    region_name={json.dumps(REGION)},
    aws_access_key_id={json.dumps(CREDENTIAL)},
    aws_secret_access_key={json.dumps(CREDENTIAL)},
)
print(dynamodb.describe_table(TableName={json.dumps(table)})["Table"]["ItemCount"])
page = dynamodb.scan(TableName={json.dumps(table)}, Limit=5)
for item in page["Items"]:
    print(item)
"""
    javascript = f"""// npm install @aws-sdk/client-dynamodb
// save as scan.mjs, run: node scan.mjs
import {{ DynamoDBClient, ScanCommand }} from "@aws-sdk/client-dynamodb";

const dynamodb = new DynamoDBClient({{
  endpoint: {json.dumps(url)},
  region: {json.dumps(REGION)},
  credentials: {{
    accessKeyId: {json.dumps(CREDENTIAL)},
    secretAccessKey: {json.dumps(CREDENTIAL)},
  }},
}});
const page = await dynamodb.send(
  new ScanCommand({{ TableName: {json.dumps(table)}, Limit: 5 }}),
);
console.log(page.Items);
"""
    cli = (
        f"AWS_ACCESS_KEY_ID={CREDENTIAL} AWS_SECRET_ACCESS_KEY={CREDENTIAL} "
        f"aws dynamodb scan --table-name {shlex.quote(table)} --max-items 5 "
        f"--endpoint-url {url} --region {REGION}"
    )
    command = (
        f"python manage.py serve_dynamodb {shlex.quote(project)} --address {address}"
    )
    return EndpointSnippets(
        command=command, python=python, javascript=javascript, cli=cli
    )
