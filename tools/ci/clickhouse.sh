#!/usr/bin/env bash
# Starts the Debian package's ClickHouse server as a daemon on 127.0.0.1 (HTTP 8123, native 9000) for the
# ClickHouse probe tests, with the package's default config (user `default`, no password). Runs as root
# (or through sudo); the server itself runs as the `clickhouse` user that owns /var/lib/clickhouse.
# It also adds the password user the probe tests authenticate with (`corekit_probe`, password
# `corekit-probe-password`, loopback only) in users.d; the server reloads users without a restart.
# Idempotent: starts nothing when the server already answers. Exits non-zero when it does not answer
# `SELECT 1` within 60 seconds.
set -euo pipefail

config=/etc/clickhouse-server/config.xml
run_directory=/run/clickhouse-server
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

answers() {
  [ "$(curl -fsS --max-time 2 'http://127.0.0.1:8123/?query=SELECT%201' 2>/dev/null)" = "1" ]
}

ensure_test_user() {
  as_root mkdir -p /etc/clickhouse-server/users.d
  as_root tee /etc/clickhouse-server/users.d/corekit-probe.xml >/dev/null <<'XML'
<?xml version="1.0"?>
<yandex>
    <users>
        <corekit_probe>
            <password>corekit-probe-password</password>
            <networks>
                <ip>::1</ip>
                <ip>127.0.0.1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </corekit_probe>
    </users>
</yandex>
XML
}

if [ -d /etc/clickhouse-server ]; then ensure_test_user; fi

if answers; then
  echo "clickhouse: already answering on 127.0.0.1:8123"
  exit 0
fi

if ! command -v clickhouse-server >/dev/null 2>&1; then
  echo "clickhouse: clickhouse-server is not installed (apt-get install clickhouse-server clickhouse-client)" >&2
  exit 1
fi

for directory in /var/lib/clickhouse /var/log/clickhouse-server "$run_directory"; do
  as_root mkdir -p "$directory"
  as_root chown clickhouse:clickhouse "$directory"
done

# A stale pid file from a killed server makes --daemon refuse to start.
if [ -f "$run_directory/clickhouse-server.pid" ] && ! as_root kill -0 "$(cat "$run_directory/clickhouse-server.pid")" 2>/dev/null; then
  as_root rm -f "$run_directory/clickhouse-server.pid"
fi

if ! pgrep -u clickhouse -x clickhouse-server >/dev/null 2>&1; then
  echo "clickhouse: starting the server"
  as_root runuser -u clickhouse -- clickhouse-server --daemon \
    --config-file="$config" --pid-file="$run_directory/clickhouse-server.pid"
fi

for _ in $(seq 1 60); do
  if answers; then
    echo "clickhouse: answering SELECT 1 on 127.0.0.1:8123"
    exit 0
  fi
  sleep 1
done
echo "clickhouse: the server did not answer SELECT 1 within 60 s; see /var/log/clickhouse-server/clickhouse-server.err.log" >&2
exit 1
