#!/usr/bin/env bash
# The production drill: docs/howto/production.md, end to end, on this machine. With DEBUG=0, a random
# SECRET_KEY, a fresh PostgreSQL database (theresa_drill, dropped and created here) and Redis it runs migrate,
# collectstatic (whitenoise's CompressedManifestStaticFilesStorage), check --deploy and load_demo, starts gunicorn
# (3 workers), a Celery worker and Celery beat in the background (a trap stops them on any exit), runs .ci/smoke.py
# against gunicorn, and waits for a JobRun written by a task that beat sent and the worker ran (DRILL_BEAT_EVERY_SECONDS
# adds that one entry to CELERY_BEAT_SCHEDULE; the real schedule is nightly). Any failure fails the drill.
# Plain HTTP on loopback: .ci/smoke.py sends X-Forwarded-Proto like the Village's TLS proxy (SECURE_PROXY_SSL_HEADER).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
DRILL_STARTED=$SECONDS
step() { STEP_STARTED=$SECONDS; printf '\n---- drill: %s (%s)\n' "$1" "$(date +%H:%M:%S)"; }
done_step() { printf '     done in %ss\n' "$((SECONDS - STEP_STARTED))"; }

DRILL_DB="${DRILL_DB:-theresa_drill}"
PG="${DRILL_PG:-postgres://postgres@127.0.0.1:5432}"
DRILL_DIR="$ROOT/var/drill"
rm -rf "$DRILL_DIR" && mkdir -p "$DRILL_DIR"
PORT="$(.venv/bin/python -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
PASSWORD="drill-$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"

# The production environment, and nothing else from the caller's (env -i below).
DRILL_ENV=(
  PATH="$PATH" HOME="${HOME:-/root}" LANG=C.UTF-8
  DEBUG=0
  SECRET_KEY="drill-$(head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')"
  ALLOWED_HOSTS=127.0.0.1,localhost
  SITE_URL="http://127.0.0.1:$PORT"
  DATABASE_URL="$PG/$DRILL_DB"
  REDIS_URL="${DRILL_REDIS_URL:-redis://127.0.0.1:6379/15}"
  VAR_DIR="$DRILL_DIR"
  STATIC_ROOT="$DRILL_DIR/staticfiles"
  MEDIA_ROOT="$DRILL_DIR/media"
  DEMO_PASSWORD="$PASSWORD"
  DRILL_BEAT_EVERY_SECONDS=5
  LOG_LEVEL=WARNING
)
run() { env -i "${DRILL_ENV[@]}" "$@"; }
manage() { run .venv/bin/python manage.py "$@"; }

PIDS=()
cleanup() {
  status=$?
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for _ in $(seq 1 40); do
    alive=0; for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break; sleep 0.5
  done
  for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  if [ "$status" -ne 0 ]; then
    echo "drill FAILED (exit $status); the last lines of each process log:"
    for log in "$DRILL_DIR"/*.log; do [ -f "$log" ] && { echo "== $log"; tail -n 25 "$log"; }; done
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "fresh PostgreSQL database $DRILL_DB and Redis db"
dropdb --if-exists --force -h 127.0.0.1 -U postgres "$DRILL_DB"
createdb -h 127.0.0.1 -U postgres "$DRILL_DB"
redis-cli -u "${DRILL_REDIS_URL:-redis://127.0.0.1:6379/15}" flushdb >/dev/null
done_step

# collectstatic needs no database: it runs alongside migrate, check and load_demo (the drill's longest step).
COLLECT_STARTED=$SECONDS
env -i "${DRILL_ENV[@]}" .venv/bin/python manage.py collectstatic --noinput >"$DRILL_DIR/collectstatic.log" 2>&1 &
COLLECT_PID=$!
PIDS+=("$COLLECT_PID")

step "migrate (collectstatic running alongside)"
manage migrate --noinput >"$DRILL_DIR/migrate.log"
done_step

step "check --deploy --fail-level WARNING"
manage check --deploy --fail-level WARNING
done_step

step "load_demo"
manage load_demo >"$DRILL_DIR/load_demo.log"
tail -n 1 "$DRILL_DIR/load_demo.log"
done_step

step "collectstatic --noinput (CompressedManifestStaticFilesStorage), started with migrate"
wait "$COLLECT_PID" || { echo "collectstatic failed:"; tail -n 20 "$DRILL_DIR/collectstatic.log"; exit 1; }
PIDS=()  # collectstatic was the only background process so far, and it is done
tail -n 1 "$DRILL_DIR/collectstatic.log"
test -s "$DRILL_DIR/staticfiles/staticfiles.json"
printf '     collectstatic took %ss in all\n' "$((SECONDS - COLLECT_STARTED))"
done_step

step "start gunicorn (3 workers, 127.0.0.1:$PORT), celery worker, celery beat"
# The JobRuns load_demo wrote are not the drill's: only a later one proves beat and the worker.
BEFORE="$(manage shell -c "from permits.models import JobRun; print(max(JobRun.objects.values_list('pk', flat=True), default=0))" | tail -n 1)"
# Started straight from env (no shell function in between), so $! is the process itself and the trap reaches it.
env -i "${DRILL_ENV[@]}" .venv/bin/gunicorn theresa_permits.wsgi --bind "127.0.0.1:$PORT" --workers 3 --timeout 60 \
  >"$DRILL_DIR/gunicorn.log" 2>&1 &
PIDS+=($!)
env -i "${DRILL_ENV[@]}" .venv/bin/celery -A theresa_permits worker --pool=solo --without-mingle --without-gossip --loglevel=INFO \
  >"$DRILL_DIR/worker.log" 2>&1 &
PIDS+=($!)
env -i "${DRILL_ENV[@]}" .venv/bin/celery -A theresa_permits beat --loglevel=INFO --schedule "$DRILL_DIR/celerybeat-schedule" \
  --pidfile= >"$DRILL_DIR/beat.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 60); do
  curl -fsS -o /dev/null -H 'X-Forwarded-Proto: https' "http://127.0.0.1:$PORT/" 2>/dev/null && break
  for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null || { echo "process $pid exited"; exit 1; }; done
  sleep 0.5
done
curl -fsS -o /dev/null -H 'X-Forwarded-Proto: https' "http://127.0.0.1:$PORT/"
done_step

step "smoke: roles, application, PDF (.ci/smoke.py)"
.venv/bin/python .ci/smoke.py "http://127.0.0.1:$PORT" --password "$PASSWORD"
done_step

step "a job sent by beat and run by the worker (a JobRun of permits.expire_lapsed)"
found=""
for _ in $(seq 1 60); do
  found="$(manage shell -c "from permits.models import JobRun
r = JobRun.objects.filter(name='permits.expire_lapsed', state='finished', pk__gt=$BEFORE).first()
print(f'JobRun {r.pk} {r.state} at {r.finished_at:%H:%M:%S}' if r else '')" 2>/dev/null | tail -n 1)"
  [ -n "$found" ] && break
  sleep 1
done
[ -n "$found" ] || { echo "no JobRun after 60 s"; exit 1; }
echo "     $found"
grep -q "Sending due task drill-expire-lapsed" "$DRILL_DIR/beat.log" || { echo "beat did not send the task"; exit 1; }
grep -q "permits.tasks.expire_lapsed_permits.*succeeded" "$DRILL_DIR/worker.log" || { echo "worker log: no success"; exit 1; }
test -s "$DRILL_DIR/celerybeat-schedule" || ls "$DRILL_DIR"/celerybeat-schedule* >/dev/null
echo "     beat sent it (beat.log), the worker ran it (worker.log), beat wrote $(ls "$DRILL_DIR" | grep celerybeat | head -n1)"
done_step

step "gunicorn served without errors"
if grep -E "Traceback|Internal Server Error|\[ERROR\]" "$DRILL_DIR/gunicorn.log"; then exit 1; fi
done_step

printf '\n==== production drill passed in %ss\n' "$((SECONDS - DRILL_STARTED))"
