#!/usr/bin/env python3
"""Mine training pairs for the second stage from the dev sets' own histories.

Every repository of the dev sets (dev, dev2, swe-lite-sample; ours, never a
held-out one) already has an index per eval task at the task's parent P (make
eval's work folder). For each such index this reads the first-parent commits
after P (--window of them) and keeps a commit M as a pair (its message, the
functions it changed) by the method dev2/README.md gives for the eval's
tasks (the held-out set's, so the pairs read like the tasks they train for):

- a commit of one parent whose subject is a fix in words: four words and 20
  characters or more, a fix-like word (fix, crash, avoid, wrong, missing,
  should, not...), none of the blacklist (refactor, format, lint, typo, docs,
  bump, release, deps, chore, rename, cleanup, revert, perf, test, ci...);
- it touches 1-3 non-test source files (10 files in all at most), changes at
  most 150 of their lines, and adds or deletes none;
- its text names none of the functions it changed (no eval task does);
- it is no eval task's own commit;
- every non-test source file it changes (a file the index holds) is the same
  at M's first parent as at P, so the index at P is the state before M, as an
  eval task's index is the state before its fix;
- its changed and removed lines (blank, comment and import lines aside; a pure
  insertion counts at its place) fall in 1-3 functions, methods or
  constructors of the index (a nested function counts as the outermost one,
  as the eval's gold does), and in nothing else of source.

--snapshots N does not read --work: it indexes each repository of the dev sets
afresh at N commits spread over the last --span commits of its first-parent
line (git archive into OUT/snap, sdl index --sdl), mines the non-merge commits
after each (--window of them; --loose's subject rule, the eval's size rules,
a changed function may be named), and has rankfit collect each snapshot's
samples (rankfit -collectonly -keep) into OUT/samples/ before the checkout and
index are deleted: pairs at scale, with disk for one snapshot per job. A
commit that changes an eval task's gold function within --fix-days of the
task's commit is that task's fix and is not mined.

    python3 eval/mine.py --snapshots 30 --out /tmp/mined --sdl /tmp/sdl --rankfit /tmp/rankfit --jobs 2

--loose reads the first-parent line instead (a pull request's merge gives
its title and body), with none of the first three rules but a subject of
three words that is not a merge of a branch, a release or a chore: the first
try (docs/retrieval.md).

It writes OUT/eval/mined/tasks.jsonl (the eval's task format, set "mined",
parent P) and OUT/work/mined/NNN-OWNER+NAME-P10 (links to the index folders),
with OUT/eval and OUT/work linking the three dev sets too, so that

    rankfit -work OUT/work -eval OUT/eval -sets dev,dev2,swe-lite-sample,mined

reads the pairs beside the real tasks. The pairs are training data only:
rankfit scores only the real tasks, and leaves a repository's pairs out of
the fold that scores that repository. Nothing fetched is written into the
repository. Python 3 standard library only.

    python3 eval/mine.py --work /tmp/eval-rank4 --out /tmp/rank4-mined
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

SETS = ("dev", "dev2", "swe-lite-sample")
OWN = {"function", "method", "constructor"}

# the eval's subject rules (dev2/README.md, "How the set was built")
FIXWORD = re.compile(r"\b(fix\w*|crash\w*|avoid\w*|prevent\w*|wrong\w*|don'?t|doesn'?t|handle\w*|incorrect\w*|error\w*|"
                     r"missing|leak\w*|overflow\w*|should|not|bug\w*|broken|fail\w*|correct\w*|ignore\w*|"
                     r"invalid|unexpected|regression|properly|instead|respect\w*|panic\w*|never|can'?t|cannot)\b", re.I)
BLACKLIST = re.compile(r"\b(refactor\w*|format\w*|lint\w*|typos?|docs?|documentation|bump\w*|release\w*|deps|dependenc\w+|"
                       r"chore|renam\w*|clean\s?up\w*|typing|revert\w*|perf|tests?|ci|build|changelog|readme|"
                       r"deprecat\w*|merge)\b", re.I)
COP = re.compile(r"\b[A-Z][A-Za-z]+/[A-Z][A-Za-z]+\b")
CLEAN = [re.compile(p, re.I | re.M) for p in (r"^\[(fix|close|closes|fixes)[^\]]*\]\s*", r"https?://\S+", r"\bKTOR-\d+\b",
                                             r"^\s*-\s*\[[ x]\].*$", r"<!--.*?-->", r"^-{3,}\s*$",
                                             r"^(fixes|closes|refs|bug|follow-up|reviewed-by|reported-by)\b.*$")]
# subjects that describe no change of behaviour in words (--loose)
SKIP = re.compile(r"^(merge (branch|remote|tag)|revert|release|bump|prepare|version|v?\d+\.\d+|"
                  r"chore|docs?\b|ci\b|build\(deps|style|typo|format|lint|update (changelog|readme|deps|dependencies)|"
                  r"\[ci|\[docs|changelog|deps\b)", re.I)
TRAILER = re.compile(r"^[A-Za-z][A-Za-z-]+: .+$")
ISSUE = re.compile(r"\(?(#|gh-|GH-)\d+\)?")
COMMENT = re.compile(r"^\s*(//|#(?!include)|/\*|\*|--|<!--)")
IMPORT = re.compile(r"^\s*(import\b|from\s+\S+\s+import\b|use\s|#include|require\b|using\s|package\s)")
TEST = re.compile(r"(^|/)(tests?|spec|specs|__tests__|testing|testdata|fixtures?)(/|$)|(_test|_spec|\.test|\.spec|Test|Tests|Spec)\.[a-z]+$|(^|/)test_[^/]*$")


def git(mirror, *args):
    return subprocess.run(["git", "--git-dir", mirror, *args], capture_output=True, text=True,
                          errors="replace").stdout


def find_mirror(root, repo):
    for p in (os.path.join(root, repo.replace("/", "+"), "repo"), os.path.join(root, repo.replace("/", "+"))):
        if os.path.isdir(p):
            return p
    return None


def eval_text(mirror, commit):
    """The task text of a commit by the eval's rules (subject and body,
    trailers, issue numbers, URLs and checkboxes out, the body cut at 1500
    characters), or None when its subject is no fix in words."""
    raw = git(mirror, "log", "-1", "--format=%B", commit).strip().splitlines()
    if not raw:
        return None
    subject = raw[0].strip()
    bare = COP.sub("", subject)
    if (len(subject.split()) < 4 or len(subject) < 20 or not FIXWORD.search(bare) or BLACKLIST.search(bare)
            or re.match(r"^\w+(\([^)]*\))?!?:", subject) and re.match(r"^(docs|chore|test|ci|build|style|refactor|perf)\b", subject, re.I)):
        return None
    body = [l for l in raw[1:] if not TRAILER.match(l.strip())]
    text = "\n".join([subject] + body)
    for c in CLEAN:
        text = c.sub("", text)
    text = ISSUE.sub("", text)
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    return text[:len(subject) + 1500]


def message_text(mirror, commit):
    """The task text of a commit: subject and body, trailers and issue
    numbers out; a PR merge gives the PR's title and body. None if it says
    nothing in words (--loose)."""
    raw = git(mirror, "log", "-1", "--format=%B", commit).strip().splitlines()
    if not raw:
        return None
    subject, body = raw[0], raw[1:]
    m = re.match(r"Merge pull request #\d+ from \S+", subject)
    if m:
        body = [l for l in body if l.strip()]
        if not body:
            return None
        subject, body = body[0], body[1:]
    if SKIP.match(subject.strip()) or re.match(r"^\w+(\([^)]*\))?!?:\s*(bump|release|update dependency)", subject, re.I):
        return None
    if re.match(r"^(chore|docs|ci|build|test|style)(\([^)]*\))?!?:", subject, re.I):
        return None
    lines = [subject] + [l for l in body if not TRAILER.match(l.strip())]
    text = ISSUE.sub("", "\n".join(lines)).strip()
    text = re.sub(r"[ \t]+", " ", text)
    if len(re.findall(r"[A-Za-z]{2,}", subject)) < 3:
        return None
    return text[:2000]


def changed_lines(mirror, parent, commit, path):
    """Pre-image lines the commit changes in path (blank, comment and import
    lines aside; a pure insertion at the line it follows)."""
    out = git(mirror, "diff", "-U0", "--no-color", parent, commit, "--", path)
    lines = set()
    cur = None
    old = []
    new = []

    def flush():
        if cur is None:
            return
        a, b = cur
        if b > 0:
            for i, t in enumerate(old):
                if t.strip() and not COMMENT.match(t) and not IMPORT.match(t):
                    lines.add(a + i)
        elif any(t.strip() and not COMMENT.match(t) and not IMPORT.match(t) for t in new):
            lines.add(max(1, a))

    for l in out.splitlines():
        m = re.match(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", l)
        if m:
            flush()
            cur = (int(m.group(1)), 1 if m.group(2) is None else int(m.group(2)))
            old, new = [], []
        elif cur is not None and l.startswith("-") and not l.startswith("---"):
            old.append(l[1:])
        elif cur is not None and l.startswith("+") and not l.startswith("+++"):
            new.append(l[1:])
    flush()
    return lines


def gold_of(db, path, lines):
    """The definitions holding lines in path, as the eval's gold: the
    innermost, a nested function counted as its outermost function. None
    when a line lies outside every definition."""
    syms = db.execute("""SELECT s.name, s.kind, s.container, s.start_line, s.end_line, s.is_test FROM symbols s
        JOIN paths p ON p.id = s.path_id WHERE p.path = ? AND s.to_seq IS NULL AND s.kind != 'module'""",
                      (path,)).fetchall()
    out = {}
    for ln in lines:
        holders = [s for s in syms if s[3] <= ln <= s[4]]
        if not holders:
            return None
        holders.sort(key=lambda s: s[4] - s[3])
        g = holders[0]
        if g[1] in OWN:
            g = max((s for s in holders if s[1] in OWN), key=lambda s: s[4] - s[3])
        out[(g[0], g[3])] = g
    return list(out.values())


def mine_commit(args, mirror, db, indexed, repo, p, c, own_texts, stats, text_of, size_rules, unnamed):
    """The pair (message, changed functions) of commit c against the index db
    at p, or None with the reason counted in stats ("stale": a file c
    changes differs at c's parent from p; the commit may fit a later index)."""
    def drop(why):
        stats[why] = stats.get(why, 0) + 1
        return None
    stats["read"] = stats.get("read", 0) + 1
    text = text_of(mirror, c)
    if not text or text in own_texts or text.splitlines()[0].strip() in own_texts:
        return drop("words")
    first = c + "^1"
    files = [f for f in git(mirror, "diff", "--name-only", "--no-renames", first, c).split() if f in indexed]
    src = [f for f in files if not TEST.search(f)]
    if not src:
        return drop("nosource")
    if size_rules:
        # the eval's size rules: 1-3 source files, 10 in all, 150 lines, none added or deleted
        status = git(mirror, "diff", "--numstat", "--no-renames", first, c).splitlines()
        added = git(mirror, "diff", "--name-only", "--no-renames", "--diff-filter=AD", first, c).split()
        lines = sum(int(a) + int(d) for a, d, f in (l.split("\t", 2) for l in status)
                    if f in src and a.isdigit() and d.isdigit())
        if len(src) > 3 or len(status) > 10 or lines > 150 or any(f in src or not TEST.search(f) and f in indexed for f in added):
            return drop("size")
    if git(mirror, "diff", "--name-only", p, first, "--", *src).strip():
        return drop("stale")
    gold = []
    for f in src:
        g = gold_of(db, f, changed_lines(mirror, first, c, f))
        if g is None:
            return drop("outside")
        gold += [(f, x) for x in g]
    if any(x[1] not in OWN or x[5] for _, x in gold):
        return drop("outside")
    if not 1 <= len(gold) <= 3:
        return drop("count")
    named = any(re.search(r"\b" + re.escape(x[0]) + r"\b", text) for _, x in gold)
    if unnamed and named:
        return drop("named")
    return {"id": f"{repo.split('/')[1]}-m{c[:10]}", "set": "mined", "repo": repo, "commit": c,
            "parent": p, "task": text, "task_source": "commit", "named": named,
            "fixlike": bool(FIXWORD.search(COP.sub("", text.splitlines()[0]))),
            "date": int(git(mirror, "log", "-1", "--format=%ct", c).strip() or 0),
            "gold": [{"file": f, "name": x[0], "kind": x[1], "container": x[2],
                      "startLine": x[3], "endLine": x[4]} for f, x in gold],
            "n_gold": len(gold)}


def eval_fixes(args, tasks):
    """Per repository, the eval tasks' changed functions with their commit's
    time: a mined commit that changes one of them within --fix-days of the
    task's commit (a cherry-pick, a backport, a revert of the fix, the fix
    done twice) is the task's fix, and is not mined."""
    out = {}
    for t in tasks:
        mirror = find_mirror(args.mirror, t["repo"])
        if not mirror or not t.get("commit"):
            continue
        when = int(git(mirror, "log", "-1", "--format=%ct", t["commit"]).strip() or 0)
        for g in t.get("gold", []):
            out.setdefault(t["repo"], []).append((g["file"], g["name"], when))
    return out


def is_eval_fix(pair, fixes, days):
    for f, name, when in fixes.get(pair["repo"], []):
        if abs(pair["date"] - when) <= days * 86400 and any(g["file"] == f and g["name"] == name for g in pair["gold"]):
            return True
    return False


def snapshot_list(mirror, n, span):
    """n commits spread evenly over the last span commits of the first-parent
    line of HEAD, oldest first."""
    line = git(mirror, "rev-list", "--first-parent", "HEAD").split()[:span]
    if not line:
        return []
    step = max(1, len(line) // n)
    return list(reversed(line[step - 1::step][:n]))


def snapshot_repo(args, repo, own_commits, own_texts, fixes):
    """Index repo at --snapshots commits, mine the commits after each, collect
    rankfit's samples of the pairs and delete the checkout and index."""
    mirror = find_mirror(args.mirror, repo)
    if not mirror:
        print(f"{repo}: no mirror, skipped", file=sys.stderr)
        return []
    key = repo.replace("/", "+")
    seen, pairs, stats = set(), [], {}
    for k, p in enumerate(snapshot_list(mirror, args.snapshots, args.span)):
        name = f"{k:03d}-{key}-{p[:10]}"
        root = os.path.join(args.out, "snap", key)
        d = os.path.join(root, "work", "mined", name)
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(d, "src"))
        r = subprocess.run(f"set -o pipefail; git --git-dir {mirror} archive --format=tar {p} | tar -x -C {os.path.join(d, 'src')}",
                           shell=True, executable="/bin/bash", capture_output=True, text=True)
        if r.returncode != 0:
            # a mirror may lack its largest blobs (ktor's prebuilt libraries)
            print(f"{repo} {p[:10]}: checkout failed: {r.stderr.strip()[-200:]}", file=sys.stderr)
            shutil.rmtree(root, ignore_errors=True)
            continue
        r = subprocess.run(["nice", args.sdl, "index", "--db", os.path.join(d, "index.db"), os.path.join(d, "src")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{repo} {p[:10]}: index failed: {r.stderr[-300:]}", file=sys.stderr)
            shutil.rmtree(root, ignore_errors=True)
            continue
        db = sqlite3.connect(f"file:{os.path.join(d, 'index.db')}?mode=ro", uri=True)
        indexed = {x[0] for x in db.execute("SELECT DISTINCT p.path FROM paths p JOIN symbols s ON s.path_id = p.id")}
        mined = []
        for c in git(mirror, "rev-list", "--no-merges", "--reverse", f"{p}..HEAD").split()[:args.window]:
            if c in seen or c in own_commits:
                continue
            before = stats.get("stale", 0)
            pair = mine_commit(args, mirror, db, indexed, repo, p, c, own_texts, stats, text_of=message_text,
                               size_rules=True, unnamed=False)
            if stats.get("stale", 0) == before:
                seen.add(c)  # a stale commit may fit a later snapshot
            if pair and is_eval_fix(pair, fixes, args.fix_days):
                stats["evalfix"] = stats.get("evalfix", 0) + 1
                pair = None
            if pair:
                mined.append(pair)
        db.close()
        if mined:
            os.makedirs(os.path.join(root, "eval", "mined"), exist_ok=True)
            with open(os.path.join(root, "eval", "mined", "tasks.jsonl"), "w") as f:
                for x in mined:
                    f.write(json.dumps(x) + "\n")
            os.makedirs(os.path.join(args.out, "samples"), exist_ok=True)
            r = subprocess.run(["nice", args.rankfit, "-work", os.path.join(root, "work"), "-eval", os.path.join(root, "eval"),
                                "-sets", "mined", "-collectonly", "-keep", str(args.keep),
                                "-cache", os.path.join(args.out, "samples", name + ".json")],
                               capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{repo} {p[:10]}: rankfit: {r.stderr[-300:]}", file=sys.stderr)
        pairs += mined
        print(f"{repo} {name}: {len(mined)} pairs", file=sys.stderr, flush=True)
        shutil.rmtree(root, ignore_errors=True)
    print(f"{repo}: {len(pairs)} pairs ({stats})", file=sys.stderr, flush=True)
    return pairs


def snapshots(args, tasks, own_commits, own_texts):
    fixes = eval_fixes(args, tasks)
    repos = sorted({t["repo"] for t in tasks if not args.repo or t["repo"] in args.repo})
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(lambda r: snapshot_repo(args, r, own_commits, own_texts, fixes), repos))
    pairs = [p for r in results for p in r]
    with open(os.path.join(args.out, "pairs.jsonl"), "w") as f:
        for p in pairs:
            f.write(json.dumps(p) + "\n")
    print(f"{len(pairs)} pairs from {len(repos)} repositories -> {args.out}/pairs.jsonl, samples in {args.out}/samples",
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", help="make eval's work folder (SET/NNN-OWNER+NAME-P10/index.db)")
    ap.add_argument("--eval", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "eval"))
    ap.add_argument("--mirror", default="/work/.mirror")
    ap.add_argument("--out", required=True)
    ap.add_argument("--window", type=int, default=150, help="first-parent commits read after each index's parent")
    ap.add_argument("--per-repo", type=int, default=150, help="at most this many pairs per repository")
    ap.add_argument("--loose", action="store_true", help="the first try: the first-parent line, any subject in words")
    ap.add_argument("--repo", action="append", help="only this repository (owner/name; repeatable)")
    ap.add_argument("--snapshots", type=int, default=0,
                    help="index each repository at this many commits of its history instead of reading --work's indexes")
    ap.add_argument("--span", type=int, default=3000, help="--snapshots: spread over this many first-parent commits back from HEAD")
    ap.add_argument("--sdl", default="sdl", help="--snapshots: the sdl binary that indexes")
    ap.add_argument("--rankfit", default="rankfit", help="--snapshots: the rankfit binary that collects the samples")
    ap.add_argument("--keep", type=int, default=60, help="--snapshots: candidates kept per sample (rankfit -keep)")
    ap.add_argument("--fix-days", type=int, default=30,
                    help="--snapshots: a commit changing an eval task's gold function this close to the task's commit is its fix")
    ap.add_argument("--jobs", type=int, default=1, help="--snapshots: repositories at once")
    args = ap.parse_args()

    tasks = []
    for s in SETS:
        with open(os.path.join(args.eval, s, "tasks.jsonl")) as f:
            tasks += [dict(json.loads(l), set=s) for l in f if l.strip()]
    own_commits = {t["commit"] for t in tasks if t.get("commit")}
    own_texts = {t["task"].strip() for t in tasks} | {t["task"].strip().splitlines()[0] for t in tasks}
    if args.snapshots:
        snapshots(args, tasks, own_commits, own_texts)
        return
    if not args.work:
        ap.error("--work is required without --snapshots")

    os.makedirs(os.path.join(args.out, "eval", "mined"), exist_ok=True)
    os.makedirs(os.path.join(args.out, "work", "mined"), exist_ok=True)
    for s in SETS:
        for kind, src in (("eval", os.path.join(args.eval, s)), ("work", os.path.join(args.work, s))):
            dst = os.path.join(args.out, kind, s)
            if not os.path.lexists(dst):
                os.symlink(os.path.abspath(src), dst)

    # the index folders per repository, oldest parent first
    dirs = {}
    for t in tasks:
        key = "*-" + t["repo"].replace("/", "+") + "-" + t["parent"][:10]
        found = glob.glob(os.path.join(args.work, t["set"], key))
        if found:
            dirs.setdefault(t["repo"], {})[t["parent"]] = found[0]
    pairs, n = [], 0
    for repo in sorted(dirs):
        if args.repo and repo not in args.repo:
            continue
        mirror = find_mirror(args.mirror, repo)
        if not mirror:
            print(f"{repo}: no mirror, skipped", file=sys.stderr)
            continue
        seen, kept = set(), 0
        parents = sorted(dirs[repo], key=lambda p: git(mirror, "log", "-1", "--format=%ct", p).strip())
        stats = {}
        for p in parents:
            d = dirs[repo][p]
            db = sqlite3.connect(f"file:{os.path.join(d, 'index.db')}?mode=ro", uri=True)
            indexed = {r[0] for r in db.execute("SELECT DISTINCT p.path FROM paths p JOIN symbols s ON s.path_id = p.id")}
            link = os.path.join(args.out, "work", "mined", f"{n:03d}-{repo.replace('/', '+')}-{p[:10]}")
            n += 1
            if args.loose:
                revs = git(mirror, "rev-list", "--first-parent", "--reverse", f"{p}..HEAD").split()[:args.window]
            else:
                revs = git(mirror, "rev-list", "--no-merges", "--reverse", f"{p}..HEAD").split()[:args.window]
            for c in revs:
                if c in seen or c in own_commits or kept >= args.per_repo:
                    continue
                seen.add(c)
                pair = mine_commit(args, mirror, db, indexed, repo, p, c, own_texts, stats,
                                   text_of=message_text if args.loose else eval_text,
                                   size_rules=not args.loose, unnamed=not args.loose)
                if pair:
                    pairs.append(pair)
                    kept += 1
            db.close()
            if not os.path.lexists(link):
                os.symlink(os.path.abspath(d), link)
        print(f"{repo}: {kept} pairs ({stats})", file=sys.stderr)
    with open(os.path.join(args.out, "eval", "mined", "tasks.jsonl"), "w") as f:
        for p in pairs:
            f.write(json.dumps(p) + "\n")
    print(f"{len(pairs)} pairs from {len(dirs)} repositories -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
