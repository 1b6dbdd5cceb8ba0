#!/usr/bin/env python3
"""Runs the SQL of docs/fleet.md ("A fleet in a query engine") with DuckDB, as a reader of
that page would: in WORKDIR, which holds `reports/` (one JSON report per host) and
`fleet.ndjson` (`rigcheck fleet reports/ --profile ... --format ndjson`).

Usage: fleet_duckdb.py DOC WORKDIR

Prints one JSON object: {"duckdb": version, "queries": [{"title", "columns", "rows"}]}, one
entry per ```sql block of DOC in order, its title the block's first `-- ` comment. Exits 2
when duckdb is missing or a query fails.
"""

import json
import os
import pathlib
import re
import sys

try:
    import duckdb
except ImportError:
    print("fleet_duckdb.py: the duckdb package is missing; pip install duckdb", file=sys.stderr)
    sys.exit(2)


def blocks(doc):
    return re.findall(r"```sql\n(.*?)```", doc, flags=re.S)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    doc = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
    os.chdir(sys.argv[2])
    con = duckdb.connect()
    out = []
    for sql in blocks(doc):
        title = next((l[3:].strip() for l in sql.splitlines() if l.startswith("-- ")), "")
        try:
            rel = con.sql(sql)
            columns = list(rel.columns)
            rows = [list(r) for r in rel.fetchall()]
        except duckdb.Error as e:
            print(f"fleet_duckdb.py: {title or sql[:60]}: {e}", file=sys.stderr)
            return 2
        out.append({"title": title, "columns": columns, "rows": rows})
    print(json.dumps({"duckdb": duckdb.__version__, "queries": out}, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
