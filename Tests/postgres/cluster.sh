#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: Debian's initdb and pg_ctl, in a temporary
# directory, on a free loopback port, run as the postgres user when the caller is root
# (PostgreSQL refuses to run as root).
#
#   Tests/postgres/cluster.sh start STATE   # prints the database URL, writes STATE
#   Tests/postgres/cluster.sh stop STATE    # stops the cluster and removes its directory
#   Tests/postgres/cluster.sh halt STATE    # stops the server, keeping the cluster (an outage)
#   Tests/postgres/cluster.sh resume STATE  # starts it again on the same port
set -euo pipefail
command=${1:?start or stop}
state=${2:?a state file}
bindir=$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)

# The server outlives this script: it must not keep the caller's descriptors beyond 0-2 (a
# parent that waits for a pipe or socket to close, as Foundation's Process does, would wait
# for the server's exit).
close_inherited() {
	local fd
	for fd in $(ls /proc/$$/fd); do
		[ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
	done
	true
}

as_owner() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
start)
	close_inherited
	dir=$(mktemp -d /tmp/choreo-pg.XXXXXX)
	chmod 700 "$dir"
	[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	as_owner "$bindir/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; exit 1; }
	as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >/dev/null ||
		{ cat "$dir/server.log" >&2; exit 1; }
	as_owner "$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -qc "CREATE DATABASE choreo_test" postgres
	printf 'dir=%s\nport=%s\nurl=postgres://postgres@127.0.0.1:%s/choreo_test\n' "$dir" "$port" "$port" >"$state"
	echo "postgres://postgres@127.0.0.1:$port/choreo_test"
	;;
stop)
	[ -f "$state" ] || exit 0
	dir=$(sed -n 's/^dir=//p' "$state")
	if [ -n "$dir" ] && [ -d "$dir/data" ]; then
		as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
	fi
	[ -n "$dir" ] && rm -rf "$dir"
	rm -f "$state"
	;;
halt)
	dir=$(sed -n 's/^dir=//p' "$state")
	as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
	;;
resume)
	close_inherited
	dir=$(sed -n 's/^dir=//p' "$state")
	port=$(sed -n 's/^port=//p' "$state")
	as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
		-o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200" start >/dev/null
	;;
*)
	echo "usage: $0 start|stop|halt|resume STATE" >&2
	exit 2
	;;
esac
