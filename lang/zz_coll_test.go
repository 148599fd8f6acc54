package lang

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

func TestZZCollisions(t *testing.T) {
	if os.Getenv("COLL") == "" {
		t.Skip()
	}
	files, _ := filepath.Glob("testdata/resolve/" + os.Getenv("COLL") + "/*.txtar")
	for _, file := range files {
		ar, _ := txtar.ParseFile(file)
		srcs := map[string][]byte{}
		for _, f := range ar.Files {
			srcs[f.Name] = f.Data
		}
		tab := newFixtureTable(t, srcs)
		for _, p := range tab.paths {
			f := tab.facts[p]
			l := ByName(f.Lang)
			seen := map[string][]string{}
			for i := range f.Refs {
				r := &f.Refs[i]
				res := l.Resolve(&Context{File: tab.files[p], From: fixtureTarget(p, f, r.Symbol), Table: tab}, r)
				to := "?"
				if res.Target != nil {
					to = res.Target.ID
				}
				k := fmt.Sprint(r.Symbol, to, r.Kind, res.Rule)
				if res.Target == nil {
					k += r.Qualifier + "." + r.Name
				}
				seen[k] = append(seen[k], r.Qualifier+"."+r.Name)
			}
			for k, v := range seen {
				if len(v) > 1 {
					fmt.Println(file, p, k, v)
				}
			}
		}
	}
}
