#!/usr/bin/env python3
"""Markdown tables, with spreads and paired verdicts, from the JSON that `decoder-size`, `hamming` and
`data-efficiency` write.

Usage:
  scripts/experiment-table.py decoder-size.json
  scripts/experiment-table.py hamming.json
  scripts/experiment-table.py data-efficiency.json

The experiment is read from the file's "experiment" field.

- decoder-size: per data set and size the mean +- sd of the test NLL of y01 over every (fold, seed) training, and
  the paired difference size - base over the same (fold, seed) pairs: mean +- standard error (sd / sqrt(n)).
- hamming: per data set and n the MSE of the n-sample mean, mean +- sd over runs, for both tokenizations, and the
  paired difference Hamming - binary over runs (run r of both trains on the same subset with the same seed).
- data-efficiency: per data set and n the relative test MSE of every head, mean +- sd over runs, and the paired
  differences decoder - other head over runs (run r of every head trains on the same subset with the same seed).

Verdict of a paired difference A - B (lower is better in all three): A or B when the mean is more than two
standard errors from 0 in that side's favour, '=' otherwise, '?' with fewer than 2 pairs.
"""
import json
import math
import sys


def mean_sd(xs):
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
    return m, sd


def paired(a, b, name_a, name_b):
    d = [x - y for x, y in zip(a, b)]
    m, sd = mean_sd(d)
    if len(d) < 2:
        return "%+.3g (?)" % m
    se = sd / math.sqrt(len(d))
    verdict = name_a if m < -2 * se else name_b if m > 2 * se else "="
    return "%+.3g +- %.2g (%s)" % (m, se, verdict)


def g(x, digits=3):
    return "%.*g" % (digits, x)


def decoder_size(doc):
    points = doc["points"]
    cfg = doc["config"]
    print("Test NLL of y01 (lower is better): mean +- sd over %d training(s) per point (folds %s x %d seed(s)); "
          "paired: size - base over the same (fold, seed) pairs, mean +- standard error (verdict)."
          % (len(cfg["folds"]) * cfg["runs"], cfg["folds"], cfg["runs"]))
    print()
    datasets = []
    for p in points:
        if p["dataset"] not in datasets:
            datasets.append(p["dataset"])
    header = "| size (layers, heads, units) | head parameters |"
    rule = "|---|---|"
    for d in datasets:
        header += " %s NLL | %s size - base |" % (d, d)
        rule += "---|---|"
    print(header)
    print(rule)
    sizes = []
    for p in points:
        key = (p["layers"], p["heads"], p["units"])
        if key not in sizes:
            sizes.append(key)
    base = sizes[0]
    by = {(p["dataset"], (p["layers"], p["heads"], p["units"])): p for p in points}
    for s in sizes:
        any_point = next(p for p in points if (p["layers"], p["heads"], p["units"]) == s)
        row = "| (%d, %d, %d)%s | %s |" % (s[0], s[1], s[2], " base" if s == base else "",
                                          format(any_point["headParams"], ",").replace(",", " "))
        for d in datasets:
            p = by[(d, s)]
            m, sd = mean_sd(p["nllPerRun"])
            row += " %.3f +- %.3f |" % (m, sd)
            row += " |" if s == base else " %s |" % paired(p["nllPerRun"], by[(d, base)]["nllPerRun"], "size", "base")
        print(row)


def hamming(doc):
    curves = doc["curves"]
    print("MSE of the n-sample mean of y01 (lower is better): mean +- sd over %d runs; paired: Hamming - binary "
          "over runs, mean +- standard error (verdict)." % doc["config"]["runs"])
    print()
    by = {(c["dataset"], c["tokens"]): c for c in curves}
    datasets = []
    for c in curves:
        if c["dataset"] not in datasets:
            datasets.append(c["dataset"])
    print("| dataset | n | binary | Hamming | Hamming - binary | binary, brute-force expectation | Hamming, expectation |")
    print("|---|---|---|---|---|---|---|")
    for d in datasets:
        b, h = by[(d, "binary")], by[(d, "hamming")]
        for j, n in enumerate(b["samples"]):
            if n not in (1, 8, 128) and j != len(b["samples"]) - 1:
                continue
            bj = [r[j] for r in b["msePerRun"]]
            hj = [r[j] for r in h["msePerRun"]]
            print("| %s | %d | %.4f +- %.4f | %.4f +- %.4f | %s | %.4f | %.4f |" % (
                d, n, *mean_sd(bj), *mean_sd(hj), paired(hj, bj, "Hamming", "binary"),
                b["expectedMse"][j], h["expectedMse"][j]))


def data_efficiency(doc):
    points = doc["points"]
    print("Relative test MSE (lower is better): mean +- sd over %d runs; paired: decoder - other head over runs, "
          "mean +- standard error (verdict)." % doc["config"]["runs"])
    print()
    heads, datasets, sizes = [], [], []
    for p in points:
        for lst, v in ((heads, p["head"]), (datasets, p["dataset"]), (sizes, p["size"])):
            if v not in lst:
                lst.append(v)
    by = {(p["dataset"], p["size"], p["head"]): p for p in points}
    others = [h for h in heads if h != "decoder"]
    print("| dataset | n | " + " | ".join(heads) + " | " + " | ".join("decoder - " + h for h in others) + " |")
    print("|---|---|" + "---|" * (len(heads) + len(others)))
    for d in datasets:
        for n in sizes:
            if (d, n, heads[0]) not in by:
                continue
            cells = ["%s +- %s" % (g(mean_sd(by[(d, n, h)]["perRun"])[0]), g(mean_sd(by[(d, n, h)]["perRun"])[1], 2))
                     for h in heads]
            if "decoder" in heads:
                cells += [paired(by[(d, n, "decoder")]["perRun"], by[(d, n, h)]["perRun"], "decoder", h)
                          for h in others]
            print("| %s | %d | %s |" % (d, n, " | ".join(cells)))


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip())
        return 2
    with open(argv[1]) as f:
        doc = json.load(f)
    kind = doc.get("experiment")
    table = {"decoder-size": decoder_size, "hamming": hamming, "data-efficiency": data_efficiency}.get(kind)
    if table is None:
        print("unknown experiment %r in %s: expected decoder-size, hamming or data-efficiency" % (kind, argv[1]),
              file=sys.stderr)
        return 2
    table(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
