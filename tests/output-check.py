#!/usr/bin/env python3
"""Strict checks of the toolkit's formatted output, for the Bats suites.

    output-check.py csv FILE [NAME...]    RFC 4180, same number of fields
                                          on every row; each NAME (bytes) is
                                          a field, byte for byte
    output-check.py json FILE [NAME...]   one strict JSON document
    output-check.py jsonl FILE [NAME...]  strict JSON on every line
    output-check.py xml FILE              well-formed XML

Strict JSON: UTF-8 only, no NaN or Infinity, no lone surrogates.  For
JSON, each NAME must be a string of the document once its invalid UTF-8 is
replaced by U+FFFD (the maximal-subpart rule, as Python's 'replace'
decoding does).  Exits 1 with a message on the first problem.
"""
import json
import os
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    sys.exit("output-check: %s: %s" % (sys.argv[2], msg))


def csv_rows(data):
    """A strict RFC 4180 parser over bytes: fields are bytes."""
    rows, row, field = [], [], bytearray()
    i, n = 0, len(data)
    at_start = True
    while i < n:
        c = data[i:i + 1]
        if at_start and c == b'"':
            i += 1
            while True:
                if i >= n:
                    fail("unterminated quoted field in row %d" % (len(rows) + 1))
                if data[i:i + 1] == b'"':
                    if data[i + 1:i + 2] == b'"':
                        field += b'"'
                        i += 2
                        continue
                    i += 1
                    break
                field += data[i:i + 1]
                i += 1
            c = data[i:i + 1]
            if c not in (b",", b"\n", b"\r", b""):
                fail("text after a closing quote in row %d: %r" % (len(rows) + 1, c))
            at_start = False
            continue
        if c == b",":
            row.append(bytes(field))
            field = bytearray()
            at_start = True
            i += 1
        elif c in (b"\n", b"\r"):
            if c == b"\r":
                if data[i + 1:i + 2] != b"\n":
                    fail("bare CR outside quotes in row %d" % (len(rows) + 1))
                i += 1
            row.append(bytes(field))
            rows.append(row)
            row, field, at_start = [], bytearray(), True
            i += 1
        else:
            if c == b'"':
                fail("quote inside an unquoted field in row %d" % (len(rows) + 1))
            field += c
            at_start = False
            i += 1
    if row or field:
        fail("the last row has no line end")
    return rows


def no_surrogates(v):
    if isinstance(v, str):
        v.encode("utf-8")
    elif isinstance(v, list):
        for x in v:
            no_surrogates(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            no_surrogates(k)
            no_surrogates(x)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)


def strict_json(text, where):
    def bad_constant(c):
        fail("%s: %s is not JSON" % (where, c))
    try:
        v = json.loads(text, parse_constant=bad_constant)
        no_surrogates(v)
    except (ValueError, UnicodeError) as e:
        fail("%s: %s" % (where, e))
    return v


def main():
    kind, path = sys.argv[1], sys.argv[2]
    names = [os.fsencode(a) for a in sys.argv[3:]]
    data = open(path, "rb").read()
    if kind == "csv":
        rows = csv_rows(data)
        if not rows:
            fail("no header row")
        for k, r in enumerate(rows):
            if len(r) != len(rows[0]):
                fail("row %d has %d fields, the header %d" % (k + 1, len(r), len(rows[0])))
        fields = {f for r in rows for f in r}
        for name in names:
            if name not in fields:
                fail("no field is %r" % name)
        return
    if kind == "xml":
        try:
            ET.fromstring(data)
        except ET.ParseError as e:
            fail(str(e))
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    if kind == "json":
        values = [strict_json(text, "document")]
    elif kind == "jsonl":
        values = [strict_json(line, "line %d" % (k + 1))
                  for k, line in enumerate(text.split("\n")) if line.strip()]
    else:
        sys.exit("output-check: unknown kind %r" % kind)
    found = {s for v in values for s in strings(v)}
    for name in names:
        want = name.decode("utf-8", "replace")
        if want not in found:
            fail("no string is %r" % want)


main()
