#!/usr/bin/env python3
"""make eval: sdl's retrieval on every dev set at several budgets, in one run.

For each set (dev, dev2, swe-lite-sample) this runs the shared runner
(../shared/eval/run_eval.py) once per budget, reusing one index per checkout
across budgets, and prints one table: symbol recall, @1/@5/@10 (share of gold
items hit by one of the first k cards, in slice order), slice p50, index time,
and extraction coverage (the share of gold items that exist in the index as a
symbol of the same name whose range overlaps the gold range), per set and per
language. --markdown writes the table for docs/retrieval.md.

The summaries come from the runner's own summarize(), so the figures are the
runner's. Mirrors stay outside the repository (--mirror, default
/work/.mirror). Python 3 standard library only.
"""

import argparse
import glob
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

SETS = ("dev", "dev2", "swe-lite-sample")
BUDGETS = (4000, 1500, 1000)

# The index runs once per checkout: later budgets reuse the file the first
# budget wrote (same binary, same checkout, one invocation of this script).
INDEX_CMD = "sh -c 'test -s {db} || exec {sdl} index --db {db} {dir}'"


def load_runner(eval_dir):
    sys.path.insert(0, eval_dir)
    import run_eval  # noqa: E402  (the shared runner, for summarize())
    return run_eval


def run_set(args, runner_py, tasks, work, budget, first):
    out = os.path.join(work, f"result-{budget}.json")
    cmd = [sys.executable, runner_py, tasks, "--mirror", args.mirror, "--sdl", args.sdl,
           "--budget", str(budget), "--workdir", work, "--keep", "--quiet", "--out", out,
           "--index-cmd", INDEX_CMD]
    if not (first and args.baseline):
        cmd.append("--no-baseline")
    for r in args.repo or ():
        cmd += ["--repo", r]
    print("eval:", " ".join(cmd[1:3]), "budget", budget, flush=True)
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL if not args.verbose else None)
    with open(out) as fh:
        res = json.load(fh)
    res["wall_s"] = time.monotonic() - t0
    return res


def gold_coverage(work, rows, tasks_by_id):
    """Per task: how many gold items the index holds as a symbol (same file,
    same name, overlapping range), keyed by task id."""
    cov = {}
    for r in rows:
        t = tasks_by_id[r["id"]]
        pattern = os.path.join(work, f"*-{t['repo'].replace('/', '+')}-{t['parent'][:10]}", "index.db")
        dbs = glob.glob(pattern)
        if not dbs:
            continue
        con = sqlite3.connect(f"file:{dbs[0]}?mode=ro", uri=True)
        try:
            n = 0
            for g in t["gold"]:
                name = g["name"].split(".")[-1]
                q = ("SELECT 1 FROM symbols s JOIN paths p ON p.id = s.path_id WHERE p.path = ? AND s.to_seq IS NULL "
                     "AND s.name = ? AND s.start_line <= ? AND s.end_line >= ? LIMIT 1")
                if con.execute(q, (g["file"], name, g["endLine"], g["startLine"])).fetchone():
                    n += 1
            cov[r["id"]] = (n, len(t["gold"]))
        except sqlite3.Error as e:
            print(f"eval: coverage of {dbs[0]}: {e}", file=sys.stderr)
        finally:
            con.close()
    return cov


def p50(xs):
    return statistics.median(xs) if xs else float("nan")


def line(label, runner, rows, by_budget, cov, index_s):
    """One table row: the label, then per budget recall/@1/@5/@10, slice p50."""
    ids = {r["id"] for r in rows}
    cells = [label, str(len(rows))]
    for budget, brows in by_budget:
        sub = [r for r in brows if r["id"] in ids]
        s = runner.summarize(sub, "sdl")
        slices = [r["sdl"]["slice_s"] for r in sub if not r["sdl"].get("error")]
        if budget == by_budget[0][0]:
            cells += [f"{s['symbol_recall']:.3f}", f"{s.get('acc_at_1', 0):.3f}", f"{s.get('acc_at_5', 0):.3f}",
                      f"{s.get('acc_at_10', 0):.3f}", f"{1000 * p50(slices):.0f}"]
        else:
            cells += [f"{s['symbol_recall']:.3f}", f"{s.get('acc_at_1', 0):.3f}"]
        if s["errors"]:
            cells[-1] += f" ({s['errors']} err)"
    c = [cov[i] for i in ids if i in cov]
    cells.append(f"{sum(a for a, _ in c) / max(sum(b for _, b in c), 1):.3f}" if c else "-")
    xs = [index_s[i] for i in ids if index_s.get(i) is not None]
    cells.append(f"{statistics.mean(xs):.1f}" if xs else "-")
    return "| " + " | ".join(cells) + " |"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sdl", default=os.path.join(here, "..", "bin", "sdl"))
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--eval-dir", default=os.path.join(here, "..", "..", "shared", "eval"),
                    help="the shared eval folder (run_eval.py and the task sets)")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--budgets", default=",".join(map(str, BUDGETS)), help="the first one also gets the BM25 baseline")
    ap.add_argument("--repo", action="append", help="only tasks whose repo contains this (repeatable)")
    ap.add_argument("--work", help="work folder (default: a temp folder, removed at the end)")
    ap.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--markdown", help="write the tables here (markdown)")
    ap.add_argument("--json", help="write every summary here")
    ap.add_argument("--verbose", action="store_true", help="show the runner's per-task lines")
    args = ap.parse_args()
    args.sdl = os.path.abspath(args.sdl)
    eval_dir = os.path.abspath(args.eval_dir)
    runner_py = os.path.join(eval_dir, "run_eval.py")
    if not os.path.exists(runner_py):
        sys.exit(f"eval: no runner at {runner_py} (pass --eval-dir)")
    if not os.path.exists(args.sdl):
        sys.exit(f"eval: no sdl binary at {args.sdl} (make build first, or pass --sdl)")
    runner = load_runner(eval_dir)
    budgets = [int(b) for b in args.budgets.split(",")]
    work_root = args.work or tempfile.mkdtemp(prefix="sdl-eval-")
    version = subprocess.run([args.sdl, "version"], capture_output=True, text=True).stdout.strip().splitlines()
    out_md = [f"sdl: {version[0] if version else '?'}; budgets {', '.join(map(str, budgets))}", ""]
    all_json = {}
    hdr = ["group", "tasks", f"recall@{budgets[0]}", "@1", "@5", "@10", "slice p50 ms"]
    for b in budgets[1:]:
        hdr += [f"recall@{b}", f"@1 ({b})"]
    hdr += ["coverage", "index s"]
    try:
        for name in args.sets.split(","):
            tasks = os.path.join(eval_dir, name, "tasks.jsonl")
            with open(tasks) as fh:
                tasks_by_id = {t["id"]: t for t in map(json.loads, filter(str.strip, fh))}
            work = os.path.join(work_root, name)
            os.makedirs(work, exist_ok=True)
            by_budget, bm25 = [], None
            for i, b in enumerate(budgets):
                res = run_set(args, runner_py, tasks, work, b, i == 0)
                by_budget.append((b, res["rows"]))
                if i == 0:
                    first = res
                    bm25 = res["overall"].get("bm25")
            rows = by_budget[0][1]
            index_s = {r["id"]: r["sdl"].get("index_s") for r in rows if r.get("sdl")}
            cov = gold_coverage(work, rows, tasks_by_id)
            langs = sorted({r["language"] for r in rows})
            out_md += [f"### {name}: {len(rows)} tasks, {len(first['sdl_index_s'])} checkouts"
                       + (f"; BM25 recall@{budgets[0]} {bm25['symbol_recall']:.3f}" if bm25 else ""), "",
                       "| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr),
                       line("all", runner, rows, by_budget, cov, index_s)]
            out_md += [line(lang, runner, [r for r in rows if r["language"] == lang], by_budget, cov, index_s)
                       for lang in langs]
            out_md.append("")
            all_json[name] = {str(b): {"overall": runner.summarize(rs, "sdl")} for b, rs in by_budget}
            all_json[name]["coverage"] = {k: list(v) for k, v in cov.items()}
            print("\n".join(out_md[-(len(langs) + 5):]), flush=True)
    finally:
        if not args.work:
            shutil.rmtree(work_root, ignore_errors=True)
    text = "\n".join(out_md)
    print()
    print(text)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(text + "\n")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(all_json, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
