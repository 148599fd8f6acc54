#!/usr/bin/env python3
"""Does past agent feedback help or hurt slices? A --slice-cmd for
../shared/eval/run_eval.py.

Before each slice it writes the feedback sidecar next to the index
(feedback.jsonl) with the records an agent would have reported on earlier
tasks of the same task file: their task text, and their gold definitions as
usefulSymbols (mapped to this index's symbol ids by file and name). Then it
runs `sdl slice` and prints its answer for the runner to score.

Modes (--mode):
  none  an empty sidecar: slices as without the feature
  past  records of the tasks dated before this one (what a team would have)
  self  records of every task, this one included (an upper bound: the same
        task asked again after feedback on it; with --text-field task_commit,
        the same fix asked in the commit's words after feedback given on the
        issue's)
  subject like self, but each record's task text is only the first line
        of its task (agents describe a task briefly): the full task is asked
        after feedback given under its one-line summary

Run it once per mode on one work directory, removing the sidecar before
each index run so that no index imports it, then compare the --out files:

  go build -o /tmp/sdl-mem ./cmd/sdl
  W=/tmp/fbeval; T=/work/shared/eval/dev/tasks.jsonl
  for m in none past self subject; do
    python3 /work/shared/eval/run_eval.py $T --mirror /work/.mirror --sdl /tmp/sdl-mem \
      --workdir $W --keep --quiet --out $W/$m.json \
      --index-cmd "sh -c 'rm -f \$(dirname {db})/feedback.jsonl; {sdl} index --db {db} {dir}'" \
      --slice-cmd "python3 testdata/eval/feedback_eval.py --mode $m --tasks $T --sdl {sdl} --db {db} --budget {budget} {task}"
  done
"""
import argparse
import json
import os
import sqlite3
import subprocess
import sys


def symbol_ids(db, gold):
    """The ids of the gold definitions in the index at db: same file and
    name; of several, the one whose lines overlap (else the nearest)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        out = []
        for g in gold:
            rows = con.execute(
                """SELECT s.id, s.start_line, s.end_line FROM symbols s JOIN paths p ON p.id = s.path_id
                   WHERE p.path = ? AND s.name = ? AND s.to_seq IS NULL""", (g["file"], g["name"])).fetchall()
            if not rows:
                continue
            best = min(rows, key=lambda r: (0 if r[1] <= g["endLine"] and g["startLine"] <= r[2] else 1,
                                            abs(r[1] - g["startLine"])))
            if best[0] not in out:
                out.append(best[0])
        return out
    finally:
        con.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["none", "past", "self", "subject"], required=True)
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--sdl", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--budget", default="4000")
    ap.add_argument("task")
    a = ap.parse_args()
    tasks = [json.loads(l) for l in open(a.tasks) if l.strip()]
    # the runner passes the task's text field (--text-field): task, or
    # task_commit; feedback records always carry "task", so that with
    # --text-field task_commit the same fix is asked in other words
    me = next((t for t in tasks if t["task"] == a.task), None) or \
        next((t for t in tasks if t.get("task_commit") == a.task), None)
    recs = []
    if me is not None and a.mode != "none":
        for t in tasks:
            if t["repo"] != me["repo"]:
                continue
            if a.mode == "past" and not (t["date"] < me["date"] or t["date"] == me["date"] and t["id"] < me["id"]):
                continue
            if a.mode == "past" and t is me:
                continue
            ids = symbol_ids(a.db, t["gold"])
            if ids:
                recs.append({"feedbackId": "eval-" + t["id"], "versionId": "v1", "sliceHandle": "h_eval",
                             "usefulSymbols": ids, "missingSymbols": [], "taskTags": [], "taskType": "implement",
                             "taskText": t["task"].split("\n")[0] if a.mode == "subject" else t["task"],
                             "createdAt": t["date"] + "T00:00:00Z"})
    with open(os.path.join(os.path.dirname(a.db), "feedback.jsonl"), "w") as f:
        for r in recs:
            f.write(json.dumps(r) + "\n")
    p = subprocess.run([a.sdl, "slice", "--db", a.db, "--json", "--budget", a.budget, a.task],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stdout.write(p.stdout)
    sys.stderr.write(p.stderr)
    sys.stderr.write(f"feedback records: {len(recs)}\n")
    return p.returncode


if __name__ == "__main__":
    sys.exit(main())
