#!/usr/bin/env bash
# Lines an app writes by hand, as docs/apps-compared.md counts them: non-blank lines of Swift,
# SQL and CSV that are not comments (// and /// in Swift, -- in SQL), per example folder.
#
#   bash Examples/count-lines.sh            # every example
#   bash Examples/count-lines.sh FILE…      # given files (the page's GRDB and FMDB sketches)
set -euo pipefail
cd "$(dirname "$0")/.."

count() {
  grep -hvE '^\s*$|^\s*//|^\s*--' "$@" | wc -l
}

if [ $# -gt 0 ]; then
  count "$@"
  exit 0
fi
for app in StudentStore PeopleStore FieldsApp; do
  swift=$(count Examples/$app/*.swift)
  sql=$(count Examples/$app/migrations/*.sql)
  csv=$(cat Examples/$app/seeds/*.csv | grep -cvE '^\s*$')
  echo "$app: swift $swift, sql $sql, csv $csv"
done
