#!/usr/bin/env python3
"""The checkouts BenchmarkIndexLarge indexes (make large-checkouts).

For each repository of a dev set, the parent commit of its first task is
checked out from the mirrors with the shared runner's own checkout
(../shared/eval/run_eval.py: git archive PARENT | tar -x) into
OUT/OWNER+NAME, as the eval checks it out. A checkout already there is kept.
Python 3 standard library only.
"""

import argparse
import json
import os
import sys


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--eval-dir", default=os.path.join(here, "..", "..", "shared", "eval"),
                    help="the shared eval folder (run_eval.py and the task sets)")
    ap.add_argument("--set", default="dev2")
    ap.add_argument("--out", required=True, help="the folder of checkouts (SDL_BENCH_CHECKOUTS)")
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.eval_dir))
    import run_eval  # noqa: E402  (the shared runner: its checkout and mirror lookup)

    first = {}
    with open(os.path.join(args.eval_dir, args.set, "tasks.jsonl")) as fh:
        for line in fh:
            if line.strip():
                t = json.loads(line)
                first.setdefault(t["repo"], t["parent"])
    os.makedirs(args.out, exist_ok=True)
    for repo, parent in first.items():
        dest = os.path.join(args.out, repo.replace("/", "+"))
        if os.path.isdir(dest):
            print(f"{dest}: kept")
            continue
        git_dir = run_eval.find_git_dir(args.mirror, repo)
        if git_dir is None:
            sys.exit(f"checkouts: no mirror of {repo} under {args.mirror}")
        run_eval.checkout(git_dir, parent, dest + ".part")
        os.rename(dest + ".part", dest)
        print(f"{dest}: {repo} at {parent[:12]}")


if __name__ == "__main__":
    main()
