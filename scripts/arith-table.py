#!/usr/bin/env python3
"""Markdown tables of `regheads arith --results FILE` runs: mean +- standard error per variant, and paired differences.

Usage:
  scripts/arith-table.py FILE [FILE ...]
  e.g. scripts/arith-table.py docs/arith/expressions.tsv docs/arith/multiplication.tsv

For each setting (task, operand range, training and test sizes, epochs) it prints one table of every variant's mean
+- standard error (sd / sqrt(n)) over its seeds, then the paired differences A - B over the seeds both variants ran
(the same training and test problems for both) for the comparisons the papers make: every other variant against CE,
and multi-scale xVal against xVal. The verdict: A or B when the mean difference is more than two standard errors
from 0 in that variant's favour, '=' otherwise, '?' with fewer than 2 paired seeds. Exact match is in percent of the
test problems, MAPE in percent; R^2 and exact match are better when higher, MAE and MAPE when lower.
"""
import csv
import math
import sys

MEASURES = [("r2In", "R^2 in", 1, "%.4f"), ("maeIn", "MAE in", -1, "%.4g"), ("exactIn", "exact in", 1, "%.2f"),
            ("mapeIn", "MAPE in", -1, "%.3g"), ("r2Out", "R^2 out", 1, "%.4f"), ("maeOut", "MAE out", -1, "%.4g"),
            ("exactOut", "exact out", 1, "%.2f"), ("mapeOut", "MAPE out", -1, "%.3g")]
ORDER = ["XVAL", "XVAL_MULTISCALE", "CE", "CE_NTL_WAS", "CE_NTL_MSE", "GCE"]


def value(row, key):
    v = float(row[key])
    return 100 * v if key.startswith("exact") else v


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, sd / math.sqrt(n)


def fmt(fmt_, m, se):
    m = 0.0 if abs(m) < 1e-12 else m  # a difference of equal counts, up to rounding
    return (fmt_ % m) + " +- " + ("%.2g" % se)


def main(paths):
    runs = {}
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                setting = (row["task"], row["minOperands"], row["maxOperands"], row["train"], row["test"],
                           row["epochs"])
                runs.setdefault(setting, {}).setdefault(row["variant"], {})[int(row["seed"])] = row
    for setting, variants in sorted(runs.items()):
        task, lo, hi, train, test, epochs = setting
        name = task.lower() + ("" if task == "MULTIPLICATION" else " with %s-%s operands" % (lo, hi))
        print("### %s (%s training, %s test problems, %s epochs)\n" % (name, train, test, epochs))
        names = sorted(variants, key=lambda v: ORDER.index(v) if v in ORDER else len(ORDER))
        print("| variant | seeds | " + " | ".join(m[1] for m in MEASURES) + " |")
        print("|---|---|" + "---|" * len(MEASURES))
        for v in names:
            seeds = variants[v]
            cells = [fmt(f, *mean_se([value(seeds[s], k) for s in seeds])) for k, _, _, f in MEASURES]
            print("| %s | %d | %s |" % (v, len(seeds), " | ".join(cells)))
        pairs = [(v, "CE") for v in names if v not in ("CE", "XVAL_MULTISCALE") and "CE" in variants]
        if "XVAL_MULTISCALE" in variants and "XVAL" in variants:
            pairs.append(("XVAL_MULTISCALE", "XVAL"))
        if pairs:
            print("\n| A - B | seeds | " + " | ".join(m[1] for m in MEASURES) + " |")
            print("|---|---|" + "---|" * len(MEASURES))
        for a, b in pairs:
            common = sorted(set(variants[a]) & set(variants[b]))
            cells = []
            for k, _, better, f in MEASURES:
                d = [value(variants[a][s], k) - value(variants[b][s], k) for s in common]
                if len(d) < 2:
                    cells.append("?")
                    continue
                m, se = mean_se(d)
                verdict = "=" if abs(m) <= 2 * se else (a if m * better > 0 else b)
                cells.append("%s (%s)" % (fmt("%.3g", m, se), verdict))
            print("| %s - %s | %d | %s |" % (a, b, len(common), " | ".join(cells)))
        print()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
