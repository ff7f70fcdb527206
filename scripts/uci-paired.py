#!/usr/bin/env python3
"""Paired comparisons of two heads over the folds of `regheads uci` results files.

Usage:
  scripts/uci-paired.py A B FILE[@SUFFIX] ...
  e.g. scripts/uci-paired.py decoder mdn docs/uci/paper-small.jsonl docs/uci/paper-large.jsonl
       scripts/uci-paired.py mdn-clipped mdn docs/uci/paper-large.jsonl docs/uci/paper-mdn-clipped.jsonl@-clipped

Each file holds one JSON line per fit (the last line per fit wins, as `uci` reads it). A FILE@SUFFIX appends SUFFIX
to the head names of that file (to tell a rerun from the original). Per data set, fold and head the fit with the
lowest NLL at the data's resolution on the validation rows is kept (the fair selection of `uci`); folds where a head
has no finished fit are left out of its pairs. For each data set and figure (CRPS of y01, NLL at the data's
resolution, density NLL of y01; lower is better) it prints the mean over the paired folds of A - B, its standard
error sd / sqrt(n), and the verdict: A or B when the mean is more than two standard errors from 0 in that head's
favour, '=' otherwise, '?' with fewer than 2 paired folds.
"""
import json
import math
import sys

FIGURES = [("crps", "CRPS of y01"), ("resolution", "NLL at the data's resolution"), ("fair", "density NLL of y01")]


def load(specs):
    fits = {}
    for spec in specs:
        path, _, suffix = spec.partition("@")
        with open(path) as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                r = json.loads(line)
                r["head"] = r["head"] + suffix
                fits[(r["dataset"], r["fold"], r["head"], r["variant"], r["loss"], r["trainer"])] = r
    return fits.values()


def selected(fits):
    best = {}
    for r in fits:
        if r["status"] != "ok":
            continue
        key = (r["dataset"], r["fold"], r["head"])
        if key not in best or r["valResolution"] < best[key]["valResolution"]:
            best[key] = r
    return best


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip())
        return 2
    a, b = argv[1], argv[2]
    best = selected(load(argv[3:]))
    datasets = []
    for (d, _, _) in best:
        if d not in datasets:
            datasets.append(d)
    print("%s - %s, paired over folds (fair selection); better: a head only when the mean is more than two "
          "standard errors from 0" % (a, b))
    print("| dataset | folds | " + " | ".join(name for _, name in FIGURES) + " |")
    print("|---|---|" + "---|" * len(FIGURES))
    for d in datasets:
        folds = sorted(f for (dd, f, h) in best if dd == d and h == a and (d, f, b) in best)
        cells = []
        for key, _ in FIGURES:
            diffs = [best[(d, f, a)][key] - best[(d, f, b)][key] for f in folds]
            diffs = [x for x in diffs if math.isfinite(x)]
            n = len(diffs)
            if n == 0:
                cells.append("-")
                continue
            mean = sum(diffs) / n
            se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1) / n) if n > 1 else float("nan")
            verdict = "?" if n < 2 else (a if mean < 0 else b) if abs(mean) > 2 * se else "="
            cells.append("%+.4g +- %.2g (%s)" % (mean, se, verdict))
        if folds:
            print("| %s | %d | %s |" % (d, len(folds), " | ".join(cells)))
        else:
            print("| %s | 0 | %s |" % (d, " | ".join("-" for _ in FIGURES)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
