#!/usr/bin/env python3
"""Add candidate inputs that sdl does not compute to rankfit's samples, so that
a signal is measured held out by repository before query computes it:

    rankfit -work WORK -eval ../shared/eval -cache tasks.json -collectonly
    python3 eval/annotate_samples.py tasks.json tasks-x.json --work WORK
    rankfit -cache tasks-x.json -boost -extra Span          # against
    rankfit -cache tasks-x.json -boost -extra Rand0         # a random input

Each sample keeps its first --keep candidates in the first stage's order (the
second stage reads 30; @1-@20 are unchanged), and each candidate gets, in its
"x" (rankfit's -extra), computed from its lines in the checkout (WORK/SET/
NNN-OWNER+NAME-PARENT/src) and the index's edges:

  Span       the task's terms (stemmed as the index stems, FTS5 porter) within
             any window of --window tokens of the body, idf-weighted, idf over
             the task's candidates collected (300: what tells them apart), as
             a share
  CondHits   the same for the terms on a line holding a condition (if, when,
             case, match, catch, ?, &&, ||)
  Density    the terms' idf-weighted occurrences over sqrt(lines)
  LocalCov   the idf-weighted share of the terms the body holds at all
  HeadHit    the idf weight of the name's last word when it is a term (the
             head noun of getParenTokens); VerbHit the same for its first word
  Abbrev     the terms of 5 letters or more that the body or name holds only as
             a prefix of 3 or more (addr, buf, paren)
  FanIn, FanOut   log(1 + calls into / out of the symbol), resolved edges
  IdentBody  the share of the task's identifiers (camelCase, snake_case) the
             body holds whole; IdentCond on a condition line
  Rand0-5    uniform noise (seeded): what an input that carries nothing moves
             the held-out figure by, the yardstick for the others

Python's sqlite3 cannot read the index's full-text table (contentless_delete is
newer than its SQLite), hence the local idf and the source read from disk."""
import argparse
import collections
import glob
import json
import math
import os
import random
import re
import sqlite3
import sys

# query/fts.go's stopwords
STOP = set("""a an the and or not no nor of to in on at by for from with without into onto over under
is are was were be been being it its it's this that these those as if when while then than so such do does did done
doing can could should would will shall may might must has have had having i we you they he she them our your their
there here what which who whom whose how why where all any each every some more most other only own same too very just
also but about up down out off again once via per use used using uses get gets got make makes made like need needs
want wants new now one two first last way see also etc e g ie eg fix fixes fixed fixing issue issues bug bugs problem
problems error errors when case cases work works working instead currently still even because since however though
let lets add adds added remove removed change changes changed update updated support supports should shouldn't doesn't
don't isn't wasn't can't won't true false null none nil""".split())
COND = re.compile(r"\b(if|elif|else\s+if|when|case|switch|while|unless|guard|match|catch|except|rescue)\b|\?|&&|\|\|")
# query/rankfeat.go's DefaultRankWeights, by the samples' JSON names
WEIGHTS = dict(seed=.5, file=0, graph=.1, textRank=0, nameHits=0, pathHits=.3, containerHits=0, callable=.02,
               size=.2, peripheral=-.3, trace=.1, message=.1, scope=.2, bodiless=-.1, length=.2)
TEST_FACTOR = 0.1


class Stemmer:
    """The index's tokenizer (porter over unicode61) in a private database."""

    def __init__(self):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("create virtual table w using fts5(t, tokenize='porter unicode61 remove_diacritics 2')")
        self.db.execute("create virtual table wv using fts5vocab(w, 'instance')")
        self.seen = {}

    def stems(self, words):
        fresh = list({w for w in words if w not in self.seen})
        for i in range(0, len(fresh), 500):
            batch = fresh[i:i + 500]
            self.db.execute("delete from w")
            self.db.executemany("insert into w(rowid, t) values(?, ?)", [(j + 1, w) for j, w in enumerate(batch)])
            got = dict(self.db.execute("select doc, term from wv"))
            for j, w in enumerate(batch):
                self.seen[w] = got.get(j + 1, "")
        return [self.seen[w] for w in words]


def split_ident(w):
    parts = []
    for p in re.split(r"[_\W]+", w.strip("_")):
        parts += re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+", p)
    return [p.lower() for p in parts if p]


def task_terms(text):
    """query/fts.go's queryTerms, near enough: identifiers whole and split."""
    out, seen = [], set()
    for w in re.findall(r"[A-Za-z0-9_]+", text):
        parts = split_ident(w)
        for t in ([w.lower().strip("_")] if len(parts) > 1 else []) + parts:
            if len(t) >= 2 and t not in seen and t not in STOP and not t.isdigit():
                seen.add(t)
                out.append(t)
    return out


def looks_ident(w):
    if len(w) < 3:
        return False
    if "_" in w.strip("_"):
        return True
    return any(ch.isupper() for ch in w[1:]) and any(ch.islower() for ch in w)


def tokens_of(line):
    return [p for w in re.findall(r"[A-Za-z0-9_]+", line) for p in split_ident(w)]


def first_score(c):
    f = c["f"]
    s = sum(w * f.get(k, 0) for k, w in WEIGHTS.items())
    return s * TEST_FACTOR if f.get("test") else s


def annotate(s, d, stem, window, files):
    """Adds the inputs to each candidate of sample s, whose checkout is d."""
    terms = task_terms(s["task"])
    tset = list(dict.fromkeys(t for t in stem.stems(terms) if t))
    idents = list(dict.fromkeys(w.strip("_") for w in re.findall(r"[A-Za-z0-9_]+", s["task"]) if looks_ident(w)))
    bodies = []
    for c in s["cands"]:
        f = os.path.join(d, "src", c["file"])
        if f not in files:
            try:
                with open(f, errors="replace") as fh:
                    files[f] = fh.read().split("\n")
            except OSError:
                files[f] = []
        a, b = c.get("lines", [0, 0])
        lines = files[f][max(0, a - 1):b]
        bodies.append((lines, [stem.stems(tokens_of(line)) for line in lines]))
    df = collections.Counter()
    for _, tl in bodies:
        present = {x for line in tl for x in line}
        df.update(x for x in tset if x in present)
    n = len(bodies)
    idf = {x: math.log((n + 1) / (df[x] + 1)) + 0.1 for x in tset}
    tot = sum(idf.values()) or 1
    db = sqlite3.connect("file:" + os.path.join(d, "index.db") + "?mode=ro", uri=True)
    paths = dict(db.execute("select path, id from paths"))
    for c, (lines, tl) in zip(s["cands"], bodies):
        x = c.setdefault("x", {})
        flat = [w for line in tl for w in line]
        present = set(flat)
        x["LocalCov"] = sum(idf[w] for w in tset if w in present) / tot
        best, j, cnt = 0.0, 0, collections.Counter()
        pos = [(i, w) for i, w in enumerate(flat) if w in idf]
        for p, w in pos:
            cnt[w] += 1
            while pos[j][0] < p - window:
                cnt[pos[j][1]] -= 1
                if cnt[pos[j][1]] == 0:
                    del cnt[pos[j][1]]
                j += 1
            best = max(best, sum(idf[k] for k in cnt) / tot)
        x["Span"] = best
        cond = {w for line, toks in zip(lines, tl) if COND.search(line) for w in toks if w in idf}
        x["CondHits"] = sum(idf[w] for w in cond) / tot
        x["Density"] = sum(idf[w] for w in flat if w in idf) / tot / math.sqrt(1 + len(lines))
        nparts = stem.stems(split_ident(c["name"].split(".")[-1]))
        x["HeadHit"] = idf[nparts[-1]] / tot if nparts and nparts[-1] in idf else 0.0
        x["VerbHit"] = idf[nparts[0]] / tot if len(nparts) > 1 and nparts[0] in idf else 0.0
        raw = {w for line in lines for w in tokens_of(line)} | set(split_ident(c["name"].split(".")[-1]))
        ab = 0.0
        for t0, s0 in zip(terms, stem.stems(terms)):
            if s0 and s0 not in present and len(t0) >= 5 and any(
                    len(r) >= 3 and r != t0 and t0.startswith(r) for r in raw):
                ab += idf.get(s0, 0)
        x["Abbrev"] = ab / tot
        fi = fo = 0
        if c["file"] in paths:
            r = db.execute("select id from symbols where to_seq is null and path_id = ? and start_line = ? and name = ?",
                           (paths[c["file"]], c["lines"][0], c["name"].split(".")[-1])).fetchone()
            if r:
                fo = db.execute("select count(*) from edges where to_seq is null and src = ? and kind = 'call'",
                                (r[0],)).fetchone()[0]
                fi = db.execute("select count(*) from edges where to_seq is null and dst = ? and kind = 'call'",
                                (r[0],)).fetchone()[0]
        x["FanIn"], x["FanOut"] = math.log1p(fi), math.log1p(fo)
        body = "\n".join(lines)
        inb = [i for i in idents if re.search(r"(?<![A-Za-z0-9_])" + re.escape(i) + r"(?![A-Za-z0-9_])", body)]
        x["IdentBody"] = len(inb) / max(1, len(idents))
        x["IdentCond"] = len([i for i in inb if any(COND.search(ln) and i in ln for ln in lines)]) / max(1, len(idents))
    db.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("samples", help="rankfit's samples (-cache ... -collectonly)")
    ap.add_argument("out", help="the annotated samples to write")
    ap.add_argument("--work", required=True, help="make eval's work folder the samples were collected from")
    ap.add_argument("--eval", default="../shared/eval", help="the shared eval folder (SET/tasks.jsonl)")
    ap.add_argument("--keep", type=int, default=40, help="candidates kept per sample, in the first stage's order")
    ap.add_argument("--window", type=int, default=16, help="Span's window, in tokens")
    ap.add_argument("--seed", type=int, default=7, help="the random inputs' seed")
    args = ap.parse_args()
    with open(args.samples) as f:
        samples = json.load(f)
    tasks = {}
    for path in glob.glob(os.path.join(args.eval, "*", "tasks.jsonl")):
        with open(path) as f:
            for line in f:
                if line.strip():
                    t = json.loads(line)
                    tasks[t["id"]] = t
    stem, files, rnd = Stemmer(), {}, random.Random(args.seed)
    out = []
    for s in samples:
        t = tasks.get(s["id"])
        dirs = t and glob.glob(os.path.join(args.work, s.get("set") or "*",
                                            "*-" + t["repo"].replace("/", "+") + "-" + t["parent"][:10]))
        if not dirs:
            print(f"{s['id']}: no checkout, left out", file=sys.stderr)
            continue
        if any(c.get("forced") for c in s["cands"]):
            print(f"{s['id']}: forced candidates, left out", file=sys.stderr)
            continue
        # idf over all the candidates collected, then the first stage's
        # order (stable, as rankfit's rankOrder)
        annotate(s, dirs[0], stem, args.window, files)
        for c in s["cands"]:
            for k in range(6):
                c["x"][f"Rand{k}"] = rnd.random()
        s["cands"] = sorted(s["cands"], key=lambda c: -first_score(c))[:args.keep]
        out.append(s)
    with open(args.out, "w") as f:
        json.dump(out, f)
    print(f"{len(out)} samples annotated", file=sys.stderr)


if __name__ == "__main__":
    main()
