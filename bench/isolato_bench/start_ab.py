"""`isolato-bench start-ab`: the controller's start, class-data sharing variants alternated in one
run (bench/sh/start-ab.sh prints one TSV line per start); the summary, with each variant's
ratio to the plain start measured in the same run."""

import statistics
import sys

VARIANTS = {
    "plain": "no application CDS archive",
    "cds": "AppCDS archive of a training start to Spring's refresh (what the image builds)",
    "cds-c1": "the same, C1 compiler only (-XX:TieredStopAtLevel=1)",
    "cds-lazy": "the same, Spring beans created on first use (lazy initialization)",
    "aot": "Spring AOT bean definitions (jar built with -Paot)",
    "cds-aot": "Spring AOT and an AppCDS archive trained with it",
    "cds-aot-c1": "the same, C1 compiler only",
}


def parse(lines: list[str]) -> dict[str, list[tuple[float, float | None, float]]]:
    runs: dict[str, list[tuple[float, float | None, float]]] = {}
    for line in lines:
        f = line.rstrip("\n").split("\t")
        if len(f) != 5 or f[0] not in VARIANTS:
            continue
        spring = None if f[3] == "?" else float(f[3])
        runs.setdefault(f[0], []).append((float(f[2]), spring, float(f[4])))
    return runs


def table(runs: dict[str, list[tuple[float, float | None, float]]]) -> list[str]:
    ref = statistics.median(r[0] for r in runs["plain"])
    out = [
        "| variant | launch → /readyz 200, median (s) | ratio to plain | Spring's own "
        "`Started … in`, median (s) | RSS at ready, median (MiB) | runs (s) |",
        "|---|---|---|---|---|---|",
    ]
    for v, what in VARIANTS.items():
        if v not in runs:
            continue
        rs = runs[v]
        ready = statistics.median(r[0] for r in rs)
        springs = [r[1] for r in rs if r[1] is not None]
        spring = f"{statistics.median(springs):.2f}" if springs else "?"
        out.append(
            f"| {v}: {what} | {ready:.2f} | {ready / ref:.2f} | {spring} | "
            f"{statistics.median(r[2] for r in rs):.0f} | "
            f"{' '.join(f'{r[0]:.2f}' for r in rs)} |"
        )
    return out


def main(lines: list[str]) -> list[str]:
    runs = parse(lines)
    if "plain" not in runs:
        raise SystemExit("no plain start measured: nothing to compare with")
    return table(runs)


if __name__ == "__main__":
    print("\n".join(main(sys.stdin.readlines())))
