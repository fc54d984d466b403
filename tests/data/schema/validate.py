#!/usr/bin/env python3
"""Validates experiment files against sweep's JSON Schema with python3-jsonschema (Draft 7).

usage: validate.py SCHEMA FILE...
Prints one line per file, in the order given: "valid NAME", "refused NAME: MESSAGE" (the first error
the schema finds) or "unreadable NAME: MESSAGE" (not one YAML document of a map, as PyYAML reads it).
Exits 0 when every file was read and judged, whatever the verdicts; 2 on a bad schema.
"""
import json
import os
import sys

import jsonschema
import yaml


class Loader(yaml.SafeLoader):
    """PyYAML's safe loader without timestamps: sweep reads 2024-01-01 as text, so does this."""


Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for path in sys.argv[2:]:
        name = os.path.basename(path)
        try:
            with open(path, encoding="utf-8") as f:
                document = yaml.load(f, Loader=Loader)
        except (yaml.YAMLError, UnicodeDecodeError, ValueError) as e:
            print(f"unreadable {name}: {type(e).__name__}")
            continue
        error = jsonschema.exceptions.best_match(validator.iter_errors(document))
        if error is None:
            print(f"valid {name}")
        else:
            where = "/".join(str(p) for p in error.absolute_path)
            print(f"refused {name}: at /{where}: {error.message[:200]}")


if __name__ == "__main__":
    main()
