#!/usr/bin/env python3
"""Cut the samples of mined pairs (eval/mine.py --snapshots; rankfit's
-collectonly files) to those that read like an eval task: a subject that is a
fix in words by the eval's own rule (mine.FIXWORD, none of mine.BLACKLIST,
cop names such as Style/Foo aside) and a text that names none of the changed
functions; at most --cap a repository, the first read, each pair once.

    python3 eval/filter_pairs.py /tmp/rank6/fixpool.json
    rankfit -cache TASKS.json,/tmp/rank6/fixpool.json -boost

Prints how many were kept and why the others were not."""
import argparse
import collections
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mine  # noqa: E402


def reads_like_task(sample):
    """'' when the sample's text reads like an eval task, else why not."""
    text = sample.get("task", "")
    subject = mine.COP.sub("", text.splitlines()[0] if text else "")
    if not mine.FIXWORD.search(subject) or mine.BLACKLIST.search(subject):
        return "not a fix in words"
    for g in sample.get("gold", []):
        if re.search(r"\b" + re.escape(g.split(".")[-1]) + r"\b", text, re.I):
            return "names a changed function"
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="the JSON file of samples to write")
    ap.add_argument("--samples", default="/tmp/rank5/mined*/samples/*.json",
                    help="a glob of sample files (rankfit -collectonly's, read in name order)")
    ap.add_argument("--cap", type=int, default=120, help="at most N pairs a repository")
    args = ap.parse_args()
    kept, seen = [], set()
    per, why = collections.Counter(), collections.Counter()
    for f in sorted(glob.glob(args.samples)):
        with open(f) as fh:
            for s in json.load(fh):
                if s["id"] in seen:
                    continue
                seen.add(s["id"])
                reason = reads_like_task(s)
                if not reason and per[s["repo"]] >= args.cap:
                    reason = "over the cap"
                if reason:
                    why[reason] += 1
                    continue
                per[s["repo"]] += 1
                kept.append(s)
    with open(args.out, "w") as fh:
        json.dump(kept, fh)
    print(f"{len(kept)} kept of {len(seen)}; dropped: {dict(why)}")
    print("per repository:", dict(per))


if __name__ == "__main__":
    main()
