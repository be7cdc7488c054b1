#!/usr/bin/env python3
"""Gathers the per-host reports that cudawiz.yml keeps (REPORT_DIR/<host>.json) into one table.

With --hosts, every host named gets a row (one without a report is marked so); without, every
report in the directory does. Writes REPORT_DIR/summary.md (Markdown) and REPORT_DIR/summary.json, and prints the table.
Each report holds, per command (requirements, install, doctor), its exit code and raw output;
the output is cudawiz's --json: one JSON document, or JSON lines for a running plan (the last
object is the result). Standard library only: it runs with the controller's Ansible Python.
"""
import json
import pathlib
import sys

EXIT = {0: "ok", 1: "problems", 2: "usage error", 3: "waiting on you", 130: "interrupted"}


def documents(stdout):
    """Every JSON object the command printed, in order."""
    text = (stdout or "").strip()
    if not text:
        return []
    try:
        whole = json.loads(text)
        return [whole] if isinstance(whole, dict) else []
    except ValueError:
        pass
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
    return [d for d in found if isinstance(d, dict)]


def state(rc):
    if rc is None:
        return "did not run"
    return EXIT.get(rc, "exit %s" % rc)


def error_text(doc):
    err = doc.get("error") if isinstance(doc.get("error"), dict) else None
    if err is None:
        return None
    return "%s: %s" % (err.get("code", "error"), err.get("message", ""))


def status_counts(doc):
    """pass/warn/fail counts from any list of objects with a "status" in the document."""
    counts = {}
    for value in doc.values():
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict) and isinstance(item.get("status"), str):
                    counts[item["status"]] = counts.get(item["status"], 0) + 1
    return counts


def describe(cmd, name):
    docs = documents(cmd.get("stdout"))
    result = docs[-1] if docs else None
    rc = cmd.get("rc")
    if result is None:
        lines = (cmd.get("stderr") or "").strip().splitlines()
        return {"state": state(rc), "detail": lines[0] if lines else "no JSON output", "json": None}
    err = error_text(result)
    if err:
        detail = err
    elif name == "requirements":
        detail = "CUDA %s · cuDNN %s" % (result.get("cuda", "?"), result.get("cudnn", "?"))
        if result.get("gpuSupported") is False:
            detail = "no GPU support on this OS"
    else:
        counts = status_counts(result)
        if counts:
            detail = " ".join("%s %d" % (k, counts[k]) for k in sorted(counts))
        else:
            detail = str(result.get("status") or result.get("summary") or result.get("message") or "%d JSON documents" % len(docs))
    return {"state": state(rc), "detail": detail, "json": result, "events": len(docs)}


def main(report_dir, hosts=None):
    directory = pathlib.Path(report_dir)
    if hosts is None:
        hosts = sorted(p.stem for p in directory.glob("*.json") if p.name != "summary.json")
    rows = []
    for host in hosts:
        path = directory / (host + ".json")
        if not path.is_file():
            missing = {"state": "no report", "detail": "host unreachable or play failed before the report", "json": None, "rc": None}
            needs = dict(missing, detail="—")
            rows.append({"host": host, "tf": None, "requirements": needs, "install": dict(missing), "doctor": dict(missing), "healthy": False})
            continue
        report = json.loads(path.read_text(encoding="utf-8"))
        row = {"host": report.get("host", host), "tf": report.get("tf")}
        for name in ("requirements", "install", "doctor"):
            row[name] = describe(report.get(name) or {}, name)
            row[name]["rc"] = (report.get(name) or {}).get("rc")
        row["healthy"] = row["doctor"]["rc"] == 0
        rows.append(row)
    if not rows:
        sys.stderr.write("summarize: no host reports in %s\n" % directory)
        return 2
    header = "| host | TF | needs | install | doctor |\n|---|---|---|---|---|"
    cell = lambda r: ("%s — %s" % (r["state"], r["detail"])).replace("|", "\\|")
    lines = [header] + [
        "| %s | %s | %s | %s | %s |" % (r["host"], r["tf"] or "—", r["requirements"]["detail"].replace("|", "\\|"), cell(r["install"]), cell(r["doctor"]))
        for r in rows
    ]
    healthy = [r["host"] for r in rows if r["healthy"]]
    unhealthy = [r["host"] for r in rows if not r["healthy"]]
    lines.append("")
    lines.append("%d of %d hosts healthy%s" % (len(healthy), len(rows), (": not " + ", ".join(unhealthy)) if unhealthy else ""))
    table = "\n".join(lines)
    (directory / "summary.md").write_text(table + "\n", encoding="utf-8")
    (directory / "summary.json").write_text(json.dumps({"hosts": rows, "healthy": healthy, "unhealthy": unhealthy}, indent=2) + "\n", encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    expected = None
    if len(args) == 3 and args[1] == "--hosts":
        expected = [h for h in args[2].split(",") if h]
    elif len(args) != 1:
        sys.stderr.write("usage: summarize.py REPORT_DIR [--hosts HOST,HOST...]\n")
        sys.exit(2)
    sys.exit(main(args[0], expected))
