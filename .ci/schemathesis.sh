#!/usr/bin/env bash
# The API against its own OpenAPI schema (schemathesis, property-based): no server error, every status code and
# response body as the schema documents them. schemathesis lives in its own venv: its pytest plugin does not load
# under the project's pytest 9. Runs the embedded app (SQLite, demo data) on a free loopback port; under 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
ST_VENV=var/st-venv
[ -x "$ST_VENV/bin/st" ] || { python3.11 -m venv "$ST_VENV" && "$ST_VENV/bin/pip" install --quiet schemathesis==4.32.5; }
export VAR_DIR="$PWD/var/schemathesis"
rm -rf "$VAR_DIR"
.venv/bin/python manage.py migrate --noinput -v0
.venv/bin/python manage.py load_demo >/dev/null
TOKEN=$(.venv/bin/python manage.py shell -c "
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
print(Token.objects.get_or_create(user=get_user_model().objects.get(username='contractor'))[0].key)" | tail -n1)
PORT=$(.venv/bin/python -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
.venv/bin/python manage.py runserver "127.0.0.1:$PORT" --noreload >"$VAR_DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 60); do curl -fsS -o /dev/null "http://127.0.0.1:$PORT/api/schema/" && break; sleep 0.5; done
"$ST_VENV/bin/st" run "http://127.0.0.1:$PORT/api/schema/" -H "Authorization: Token $TOKEN" --max-examples 6 \
  --seed 20261201 -c not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance
