package index

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// filesLine returns the line of a files dump that describes path p.
func filesLine(t *testing.T, dump []byte, p string) string {
	t.Helper()
	for _, l := range strings.Split(string(dump), "\n") {
		if strings.HasPrefix(l, p+" ") {
			return l
		}
	}
	t.Fatalf("no %s in:\n%s", p, dump)
	return ""
}

// TestFileLanguages checks that each file gets the right grammar, or is
// skipped with the reason its content gives: a .h header follows the
// sources around it (C in a C repository, C++ among C++ sources) or its
// content; a Qt header parses without errors; a Qt Linguist .ts file and
// a minified bundle are skipped.
func TestFileLanguages(t *testing.T) {
	const proto = "#pragma once\n\nint store_open(const char *path);\nvoid store_close(int fd);\n"
	ctx := context.Background()

	cRepo := t.TempDir()
	writeFile(t, cRepo, "src/store.c", "#include \"store.h\"\nint store_open(const char *path) { return 0; }\n")
	writeFile(t, cRepo, "src/store.h", proto)
	writeFile(t, cRepo, "include/kv.h", "struct kv { int new; };\nint kv_get(struct kv *kv, const char *class);\n")
	files := dump(t, indexFixture(t, cRepo), "files")
	for _, p := range []string{"src/store.h", "include/kv.h"} {
		if l := filesLine(t, files, p); !strings.HasPrefix(l, p+" c ok ") {
			t.Errorf("a header of a C repository: %s", l)
		}
	}

	cppRepo := t.TempDir()
	writeFile(t, cppRepo, "src/store.cpp", "#include \"store.h\"\nint store_open(const char *path) { return 0; }\n")
	writeFile(t, cppRepo, "src/store.h", proto)
	writeFile(t, cppRepo, "include/app/api.h", proto)
	writeFile(t, cppRepo, "src/gui/mainwindow.h", `#pragma once
#include <QMainWindow>

class MainWindow final : public QMainWindow
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MainWindow)

public:
    explicit MainWindow(QWidget *parent = nullptr);

public slots:
    void showStatus(const QString &text);

signals:
    void closing();
};
`)
	writeFile(t, cppRepo, "src/gui/mainwindow.cpp", "#include \"mainwindow.h\"\nvoid MainWindow::showStatus(const QString &text)\n{\n    emit closing();\n}\n")
	// vendored C sources keep their headers C
	writeFile(t, cppRepo, "src/3rdparty/lua/lua.c", "#include \"lua.h\"\nint lua_gettop(lua_State *L) { return 0; }\n")
	writeFile(t, cppRepo, "src/3rdparty/lua/lua.h", "typedef struct lua_State lua_State;\nLUA_API int lua_gettop(lua_State *L);\n")
	writeFile(t, cppRepo, "translations/app_de.ts", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" language=\"de\">\n<context><name>MainWindow</name></context>\n</TS>\n")
	writeFile(t, cppRepo, "web/app.js", "var a = 1;"+strings.Repeat("a=a+1;", 1000)+"\n")
	db := filepath.Join(t.TempDir(), "index.db")
	sum, err := Run(ctx, testOptions(cppRepo, db))
	if err != nil {
		t.Fatal(err)
	}
	files = dump(t, db, "files")
	for p, want := range map[string]string{
		"src/store.h":            "cpp ok",
		"include/app/api.h":      "cpp ok",
		"src/gui/mainwindow.h":   "cpp ok",
		"src/gui/mainwindow.cpp": "cpp ok",
		"src/3rdparty/lua/lua.h": "c ok",
		"translations/app_de.ts": "typescript skipped (XML, not typescript)",
		"web/app.js":             "javascript skipped (minified)",
	} {
		if l := filesLine(t, files, p); !strings.HasPrefix(l, p+" "+want+" ") {
			t.Errorf("got %s\nwant %s %s", l, p, want)
		}
	}
	if sum.Languages["cpp"] != 5 || sum.Languages["c"] != 2 || sum.Skipped != 2 || sum.ParseErrors != 0 {
		t.Errorf("summary: languages %v, %d skipped, %d with parse errors", sum.Languages, sum.Skipped, sum.ParseErrors)
	}
	syms := string(dump(t, db, "symbols"))
	for _, want := range []string{"src/gui/mainwindow.h:13:4-13:41 method MainWindow.showStatus public",
		"src/gui/mainwindow.h:16:4-16:19 method MainWindow.closing public"} {
		if !strings.Contains(syms, want) {
			t.Errorf("no %q in:\n%s", want, syms)
		}
	}

	// a run over one changed header still sees the repository around it
	writeFile(t, cppRepo, "src/store.h", proto+"int store_size(void);\n")
	opts := testOptions(cppRepo, db)
	opts.Paths = []string{"src/store.h"}
	if _, err := Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	if l := filesLine(t, dump(t, db, "files"), "src/store.h"); !strings.HasPrefix(l, "src/store.h cpp ok ") {
		t.Errorf("after a run over its path: %s", l)
	}
}
