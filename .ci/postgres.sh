# Starts a private PostgreSQL cluster on loopback for the census tests and exports its URL as
# APPMETER_TEST_POSTGRES_URL. Sourced by .ci/run; the cluster is stopped when the shell exits.
# Installs PostgreSQL from Debian's packages when the machine has none.
set -euo pipefail

as_root=""
[ "$(id -u)" -eq 0 ] || as_root="sudo"
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "ci: installing PostgreSQL from Debian's packages"
  $as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq postgresql >/dev/null
fi

pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
pg_data=$(mktemp -d /tmp/appmeter-pg.XXXXXX)
pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 55432)

# PostgreSQL refuses to run as root: run it as the postgres user when we are root.
pg_run() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" -ne 0 ] || chown postgres "$pg_data"

# The cluster sorts text as many production servers do (en_US.UTF-8: "a" before "B"), so that the
# tests see it where the census relied on the database's collation (census-decisions.md S18).
has_en_us() { locale -a 2>/dev/null | grep -qix 'en_US.utf-\?8'; }
if ! has_en_us; then
  if [ ! -e /usr/share/i18n/locales/en_US ]; then
    $as_root apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq locales >/dev/null || true
  fi
  $as_root localedef -i en_US -f UTF-8 en_US.UTF-8 || true
fi
pg_locale=()
if has_en_us; then pg_locale=(--locale=en_US.UTF-8); else echo "ci: no en_US.UTF-8 locale; PostgreSQL sorts in the default locale"; fi

pg_run "$pg_bin/initdb" -D "$pg_data" -A trust -U appmeter "${pg_locale[@]}" >/dev/null
pg_run "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w \
  -o "-p $pg_port -k $pg_data -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
# Stops the server and removes its data (on exit; a script with its own exit trap calls it there).
pg_stop() { pg_run "$pg_bin/pg_ctl" -D "$pg_data" -m fast stop >/dev/null 2>&1 || true; rm -rf "$pg_data"; }
trap pg_stop EXIT
pg_run "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U appmeter appmeter_test

export APPMETER_TEST_POSTGRES_URL="postgres://appmeter@127.0.0.1:$pg_port/appmeter_test?sslmode=disable"
echo "ci: PostgreSQL $("$pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port, ${pg_locale[*]:-the default locale}"
