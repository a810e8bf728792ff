"""DynamoDB's wire protocol in front of the engine.

`protocol` turns HTTP bodies into engine requests and engine answers (and
errors) back into DynamoDB's JSON 1.0 bodies and headers; `service` routes
an `X-Amz-Target` to the engine's operation of that name (DynamoDB's and
DynamoDB Streams'), one request at a time; `server` serves it over HTTP on
the standard library's http.server; `storage` keeps the tables of a data
directory across restarts; `designs` creates a design's table and loads its
sample data. Nothing here imports Django: `manage.py serve_dynamodb` is a thin
command around `server.serve`.
"""
