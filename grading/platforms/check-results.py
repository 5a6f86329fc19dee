#!/usr/bin/env python3
"""check-results.py DIR: the results files check-in-docker collected, read
against each platform's documented schema and the points each submission
deserves.

DIR holds gs-KIND/results/results.json (Gradescope) and
pl-KIND/results/results.json (PrairieLearn) for KIND in right, wrong,
broken, hostile, and may hold lack/results/results.json (a container whose
toolchain could not be found). The schemas are those the grader's
integration test types (grading/tests/grader/platforms.rs): every field
the platform documents, no other, each of its type. Python's standard
library only, since it runs on the host beside a bare Docker engine.
Exit 0 when every file holds, 1 with each failure named otherwise.
"""
import json
import sys
from pathlib import Path

NUM = (int, float)
VIS = {"hidden", "after_due_date", "after_published", "visible"}
# field: (types, required)
GS_TOP = {
    "score": (NUM, True), "execution_time": (int, False), "output": (str, True),
    "output_format": (str, False), "test_output_format": (str, False),
    "test_name_format": (str, False), "visibility": (str, False),
    "stdout_visibility": (str, False), "extra_data": (object, False),
    "tests": (list, True), "leaderboard": (object, False),
}
GS_TEST = {
    "name": (str, True), "score": (NUM, True), "max_score": (NUM, True),
    "status": (str, True), "output": (str, True), "output_format": (str, False),
    "name_format": (str, False), "number": (str, False), "tags": (list, False),
    "visibility": (str, True), "extra_data": (object, False),
}
PL_TOP = {
    "gradable": (bool, True), "score": (NUM, True), "message": (str, True),
    "format_errors": (list, True), "output": (str, False), "images": (list, False),
    "tests": (list, True),
}
PL_TEST = {
    "name": (str, True), "description": (str, False), "points": (NUM, True),
    "max_points": (NUM, True), "message": (str, True), "output": (str, True),
    "images": (list, False),
}

failures = []


def shape(where, obj, fields):
    if not isinstance(obj, dict):
        failures.append(f"{where}: not an object")
        return
    for k in obj:
        if k not in fields:
            failures.append(f"{where}: unknown field {k!r}")
    for k, (types, required) in fields.items():
        if k not in obj:
            if required:
                failures.append(f"{where}: missing field {k!r}")
        elif types is not object and (
            not isinstance(obj[k], types) or (types is not bool and isinstance(obj[k], bool))
        ):
            failures.append(f"{where}: {k!r} is {type(obj[k]).__name__}")


def expect(cond, what):
    if not cond:
        failures.append(what)


def load(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        failures.append(f"{path}: {e}")
        return None


def gradescope(d, kind):
    where = f"gradescope {kind}"
    r = load(d / f"gs-{kind}/results/results.json")
    if r is None:
        return None
    shape(where, r, GS_TOP)
    for t in r.get("tests", []):
        shape(f"{where}: test {t.get('name')}", t, GS_TEST)
        expect(t.get("status") in ("passed", "failed"), f"{where}: status {t.get('status')}")
        expect(t.get("visibility") in VIS, f"{where}: visibility {t.get('visibility')}")
    tests = r.get("tests", [])
    total = sum(t["max_score"] for t in tests)
    earned = sum(t["score"] for t in tests)
    expect(r["score"] == earned, f"{where}: score {r['score']} is not the tests' sum {earned}")
    if kind == "right":
        expect(total > 20 and r["score"] == total, f"{where}: {r['score']} of {total}")
    elif kind == "broken":
        expect(r["score"] == 0 and "compile error" in r["output"], f"{where}: {r['output'][:300]}")
    else:
        expect(0 < r["score"] < total, f"{where}: {r['score']} of {total}")
    if kind == "hostile":
        failed = [t["name"] for t in tests if t["status"] == "failed"]
        expect(failed and all("dfs_recursive" in n for n in failed),
               f"{where}: other tests than dfs_recursive's failed: {failed}")
    print(f"{where}: {r['score']:g} of {total:g}, schema held")
    return total


def prairielearn(d, kind, total):
    where = f"prairielearn {kind}"
    path = d / f"pl-{kind}/results/results.json"
    r = load(path)
    if r is None:
        return
    expect(path.stat().st_size <= 1_000_000, f"{where}: over 1 MB")
    shape(where, r, PL_TOP)
    for t in r.get("tests", []):
        shape(f"{where}: test {t.get('name')}", t, PL_TEST)
    max_points = sum(t["max_points"] for t in r.get("tests", []))
    expect(0 <= r["score"] <= 1, f"{where}: score {r['score']}")
    expect(total is None or max_points == total, f"{where}: {max_points} points, Gradescope {total}")
    if kind == "right":
        expect(r["gradable"] and r["score"] == 1, f"{where}: {r['score']}")
    elif kind == "broken":
        expect(not r["gradable"], f"{where}: a submission that does not compile is gradable")
        expect(any("compile error" in e for e in r["format_errors"]), f"{where}: {r['format_errors']}")
    else:
        expect(r["gradable"] and 0 < r["score"] < 1, f"{where}: {r['score']}")
    print(f"{where}: gradable={r['gradable']} score={r['score']:.3f}, schema held")


def lack(d):
    path = d / "lack/results/results.json"
    if not path.exists():
        return
    r = load(path)
    if r is None:
        return
    shape("gradescope lack", r, GS_TOP)
    first = r["output"].splitlines()[0] if r["output"] else ""
    expect(first.startswith("Not graded: the grading container lacks") and "rustfmt" in first,
           f"gradescope lack: first line {first!r}")
    expect(r["score"] == 0 and r["tests"] == [], "gradescope lack: points given")
    print(f"gradescope lack: {first}")


def main():
    d = Path(sys.argv[1])
    for kind in ("right", "wrong", "broken", "hostile"):
        total = gradescope(d, kind)
        prairielearn(d, kind, total)
    lack(d)
    for f in failures:
        print(f"FAILED: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
