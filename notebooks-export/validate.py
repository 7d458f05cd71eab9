#!/usr/bin/env python3
"""Validates contend outputs against the versioned JSON Schemas in schemas/.

    validate.py SCHEMA FILE [FILE ...]

SCHEMA is a name in schemas/ (e.g. contend-table-1) or a path. A .csv file is
checked row by row: its header must equal the schema's x-columns; each cell
becomes what its column's schema types allow: a number, a string, or null when
empty. Prints one line
per file and exits 1 if any file fails. Needs python3-jsonschema.

Copyright (C) 2026 the contend authors. GPL-3.0-or-later.
"""
import csv
import json
import os
import sys

import jsonschema


def cell(v, prop):
    """A CSV cell as the column's schema types allow: empty is null; a
    number when the column takes numbers; else the string."""
    types = prop.get("type", [])
    types = [types] if isinstance(types, str) else types
    if v == "":
        return None
    for name, conv in (("integer", int), ("number", int), ("number", float)):
        if name in types:
            try:
                return conv(v)
            except ValueError:
                pass
    return v


def load_schema(name):
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")
    path = name if os.path.exists(name) else os.path.join(here, name + ".schema.json")
    with open(path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def validator(schema):
    """A validator that resolves $ref to another of our schemas from
    schemas/, never from the network (their $id URLs are names only)."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")
    store = {}
    for name in sorted(os.listdir(here)):
        if name.endswith(".schema.json"):
            with open(os.path.join(here, name)) as f:
                other = json.load(f)
            store[other["$id"]] = other
    try:  # jsonschema >= 4.18
        import referencing
        import referencing.jsonschema

        registry = referencing.Registry().with_resources(
            (uri, referencing.jsonschema.DRAFT202012.create_resource(doc)) for uri, doc in store.items())
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # Debian 12's 4.10
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


def check(schema, path):
    v = validator(schema)
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        if not rows:
            return ["empty file"]
        want = schema.get("x-columns")
        if want and rows[0] != want:
            return [f"header {rows[0]} is not {want}"]
        errors = []
        for i, r in enumerate(rows[1:], start=2):
            props = schema.get("properties", {})
            obj = {k: cell(x, props.get(k, {})) for k, x in zip(rows[0], r)}
            if len(r) != len(rows[0]):
                errors.append(f"line {i}: {len(r)} cells, the header has {len(rows[0])}")
            errors += [f"line {i}: {'/'.join(map(str, e.path))}: {e.message}" for e in v.iter_errors(obj)]
        return errors
    try:
        with open(path) as f:
            doc = json.load(f)
    except ValueError as e:
        return [f"not JSON: {e}"]
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in v.iter_errors(doc)]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    schema = load_schema(argv[0])
    bad = 0
    for path in argv[1:]:
        errors = check(schema, path)
        if errors:
            bad += 1
            print(f"FAIL {path} ({argv[0]}): {len(errors)} errors; first: {errors[0]}")
        else:
            print(f"ok   {path} ({argv[0]})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
