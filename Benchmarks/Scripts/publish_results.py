#!/usr/bin/env python3
"""Copies the tables of Benchmarks/results/latest.md (written by `weavedi-bench`) into the README,
the Performance article and the Benchmarks README, verbatim, between their BENCHMARK markers.

    swift run -c release --package-path Benchmarks weavedi-bench
    python3 Benchmarks/Scripts/publish_results.py
"""
import pathlib
import re

root = pathlib.Path(__file__).resolve().parents[2]
latest = (root / "Benchmarks/results/latest.md").read_text().strip()
lines = latest.splitlines()


def table_after(prefix):
    start = next(i for i, line in enumerate(lines) if line.startswith(prefix))
    end = start
    while end < len(lines) and (lines[end].startswith("|") or end == start):
        end += 1
    return "\n".join(lines[start:end])


main_table = table_after("| Case")
threads_start = next(i for i, line in enumerate(lines) if line.startswith("Two threads"))
threads = "\n".join(lines[threads_start:threads_start + 2]) + "\n" + table_after("| Contestant")
summary = f"`{lines[0]}`\n\n{main_table}\n\n{threads}"

targets = {
    "README.md": summary,
    "Sources/WeaveDI/WeaveDI.docc/Performance.md": latest,
    "Benchmarks/README.md": latest,
}
pattern = re.compile(r"(<!-- BENCHMARK START -->\n).*?(\n<!-- BENCHMARK END -->)", re.S)
for relative, content in targets.items():
    path = root / relative
    text = path.read_text()
    if not pattern.search(text):
        raise SystemExit(f"{relative}: no <!-- BENCHMARK START/END --> markers")
    path.write_text(pattern.sub(lambda m: m.group(1) + content + m.group(2), text))
    print(f"updated {relative}")
