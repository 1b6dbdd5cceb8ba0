#!/usr/bin/env python3
"""Validates JSON documents against rigcheck's committed schemas with the `jsonschema`
package (draft 2020-12), as a user validating reports at ingestion would.

Usage: validate.py SCHEMA_DIR DOCS_DIR

SCHEMA_DIR holds NAME.schema.json (docs/schema/). DOCS_DIR holds one folder per schema
NAME, each with documents of that kind: `*.json` is one document, `*.ndjson` one document
per line. Every schema is first checked against the draft 2020-12 meta-schema. Prints one
line per document that does not validate, with the JSON path of each error, and a last
line `documents: N passed, M failed`; exits 1 when any failed, 2 when the run itself cannot be made.
"""

import json
import pathlib
import sys

try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    print("validate.py: the jsonschema package is missing; pip install jsonschema", file=sys.stderr)
    sys.exit(2)


def documents(path):
    """(label, document) for each document in one file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".ndjson":
        for n, line in enumerate(text.splitlines(), 1):
            yield f"{path}:{n}", json.loads(line)
    else:
        yield str(path), json.loads(text)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    schemas, docs = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    passed = failed = 0
    for folder in sorted(p for p in docs.iterdir() if p.is_dir()):
        schema_file = schemas / f"{folder.name}.schema.json"
        if not schema_file.is_file():
            print(f"{folder}: no schema {schema_file}", file=sys.stderr)
            return 2
        schema = json.loads(schema_file.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".json", ".ndjson"))
        if not files:
            print(f"{folder}: no documents", file=sys.stderr)
            return 2
        for f in files:
            for label, doc in documents(f):
                errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
                if errors:
                    failed += 1
                    for e in errors[:20]:
                        print(f"{label}: {folder.name}: at {e.json_path}: {e.message[:300]}")
                else:
                    passed += 1
    print(f"jsonschema {jsonschema_version()}, draft 2020-12")
    print(f"documents: {passed} passed, {failed} failed")
    return 1 if failed else 0


def jsonschema_version():
    try:
        from importlib.metadata import version

        return version("jsonschema")
    except Exception:  # noqa: BLE001 - the version is only shown
        return "?"


if __name__ == "__main__":
    sys.exit(main())
