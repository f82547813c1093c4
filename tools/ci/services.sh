#!/usr/bin/env bash
# Starts the loopback services the integration tests use, when they are down, and installs the ones that
# come from Debian packages (memcached, clickhouse-server, chromium for the browser tests). Safe to run again.
set -uo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() {
  local port=$1 name=$2
  for _ in $(seq 1 60); do port_open "$port" && return 0; sleep 1; done
  echo "service $name did not open port $port" >&2
  return 1
}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
command -v memcached >/dev/null 2>&1 || missing+=(memcached)
command -v clickhouse-server >/dev/null 2>&1 || missing+=(clickhouse-server clickhouse-client)
# Debian's Chromium for the console's browser tests (driven by playwright-core; nothing is downloaded by npm).
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! port_open 5432; then as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start; fi
if ! port_open 3306; then as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd; fi
if ! port_open 6379; then
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
if ! port_open 5672; then as_root rabbitmq-server -detached; fi
if ! port_open 1883; then as_root mosquitto -d -c /etc/mosquitto/mosquitto.conf; fi
if ! port_open 4222; then
  as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
    -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log
fi
if ! port_open 11211; then memcached -d -u root -l 127.0.0.1 -p 11211 -m 64; fi
if ! port_open 8123; then
  bash "$(dirname "$0")/clickhouse.sh"
fi

status=0
for entry in 5432:postgresql 3306:mariadb 6379:redis 5672:rabbitmq 1883:mosquitto 4222:nats 11211:memcached 8123:clickhouse; do
  wait_port "${entry%%:*}" "${entry#*:}" || status=1
done
exit $status
