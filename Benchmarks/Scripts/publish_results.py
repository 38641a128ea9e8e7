#!/usr/bin/env python3
"""Copies the tables of Benchmarks/results/latest.md (written by `weavedi-bench`) into the README,
the Performance article and the Benchmarks README, verbatim, between their BENCHMARK markers.

    swift run -c release --package-path Benchmarks weavedi-bench
    python3 Benchmarks/Scripts/publish_results.py

The async cases' table (results/async.md, written by any run that measured them, including
`--only async-singleton,async-transient,async-waiters`) goes between the ASYNC BENCHMARK markers
of the files that have them. `--async` publishes that table alone and leaves the rest as it is.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2]
async_only = "--async" in sys.argv[1:]

# The async section, wherever an ASYNC BENCHMARK pair of markers asks for it.
async_results = root / "Benchmarks/results/async.md"
async_targets = ["README.md", "Benchmarks/README.md", "Sources/WeaveDI/WeaveDI.docc/AsyncFactories.md"]
async_pattern = re.compile(r"(<!-- ASYNC BENCHMARK START -->\n).*?(<!-- ASYNC BENCHMARK END -->)", re.S)
if async_results.exists():
    async_lines = async_results.read_text().strip().splitlines()
    async_content = f"`{async_lines[0]}`\n\n" + "\n".join(async_lines[1:]).strip()
    for relative in async_targets:
        path = root / relative
        if not path.exists():
            continue
        text = path.read_text()
        if async_pattern.search(text):
            path.write_text(async_pattern.sub(lambda m: m.group(1) + async_content + "\n" + m.group(2), text))
            print(f"updated the async results in {relative}")
elif async_only:
    raise SystemExit("Benchmarks/results/async.md: no async results (run weavedi-bench first)")
if async_only:
    raise SystemExit(0)

latest = (root / "Benchmarks/results/latest.md").read_text().strip()
# A full run's async section is published on its own, above.
latest = latest.split("\nAsync factories:")[0].strip()
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
