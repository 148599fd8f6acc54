package c

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang"
	"github.com/sdl-dev/sdl/lang/langtest"
)

// A Qt widget header as Qt applications write them: moc's macros, signal
// and slot sections, an export macro, a metatype declaration without a
// semicolon.
const qtHeaderSrc = `#pragma once

#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace Net
{
    /** Downloads one file. */
    class APP_EXPORT DownloadHandler : public QObject
    {
        Q_OBJECT
        Q_DISABLE_COPY_MOVE(DownloadHandler)
        Q_PROPERTY(QString url READ url WRITE setUrl
                   NOTIFY urlChanged)

    public:
        explicit DownloadHandler(QObject *parent = nullptr);
        Q_INVOKABLE QString url() const;
        void setUrl(const QString &url) Q_DECL_OVERRIDE;

    public slots:
        void cancel();

    private Q_SLOTS:
        void processFinished();

    signals:
        void urlChanged(const QString &url);
        void finished(const QString &reason = "signals: never");

    private:
        QTimer *m_timer = Q_NULLPTR;
        int slots = 0;
    };
}

Q_DECLARE_METATYPE(Net::DownloadHandler *)
`

const qtSourceSrc = `#include "downloadhandler.h"

Net::DownloadHandler::DownloadHandler(QObject *parent)
    : QObject(parent)
{
}

void Net::DownloadHandler::cancel()
{
    emit finished(tr("cancelled"));
    Q_EMIT urlChanged(QString());
}
`

func TestQtHeaderMacros(t *testing.T) {
	// the header is C++ by its content, whatever its extension says
	f := extractLoose(t, "src/net/downloadhandler.h", qtHeaderSrc)
	if len(f.Errors) > 0 {
		t.Errorf("parse errors: %+v", f.Errors)
	}
	langtest.WantAll(t, syms(f),
		"class Net.DownloadHandler exported", "constructor Net.DownloadHandler.DownloadHandler public",
		"method Net.DownloadHandler.url public", "method Net.DownloadHandler.setUrl public",
		"method Net.DownloadHandler.cancel public", "method Net.DownloadHandler.processFinished private",
		"method Net.DownloadHandler.urlChanged public", "method Net.DownloadHandler.finished public")
	cls := symbolOf(t, f, lang.KindClass, "Net.DownloadHandler")
	if cls.Doc != "Downloads one file." || strings.Join(cls.Signature.Bases, ",") != "QObject" {
		t.Errorf("class: doc %q bases %v", cls.Doc, cls.Signature.Bases)
	}
	// symbols keep the lines of the file as written
	if m := symbolOf(t, f, lang.KindMethod, "Net.DownloadHandler.finished"); m.Range.StartLine != 33 {
		t.Errorf("finished starts on line %d, want 33", m.Range.StartLine)
	}
	src := sourceFacts(t)
	if len(src.Errors) > 0 {
		t.Errorf("source parse errors: %+v", src.Errors)
	}
	langtest.WantAll(t, refs(src), "Net.DownloadHandler.cancel call finished", "Net.DownloadHandler.cancel call urlChanged")
}

func sourceFacts(t *testing.T) *lang.FileFacts {
	t.Helper()
	return extractLoose(t, "src/net/downloadhandler.cpp", qtSourceSrc)
}

func TestMacroBlanking(t *testing.T) {
	cpp := loadMacros("c.txt", "cpp.txt")
	out := cpp.blank([]byte(qtHeaderSrc))
	if len(out) != len(qtHeaderSrc) || bytes.Count(out, []byte("\n")) != strings.Count(qtHeaderSrc, "\n") {
		t.Fatalf("blanking moved bytes or lines")
	}
	s := string(out)
	for _, gone := range []string{"Q_OBJECT", "Q_PROPERTY", "NOTIFY urlChanged", "Q_INVOKABLE", "public slots", "Q_SLOTS",
		"APP_EXPORT", "QT_BEGIN_NAMESPACE", "Q_DECLARE_METATYPE", "Q_NULLPTR"} {
		if strings.Contains(s, gone) {
			t.Errorf("%q left in:\n%s", gone, s)
		}
	}
	for _, kept := range []string{
		"#include <QObject>",                       // preprocessor lines stay
		`"signals: never"`,                         // strings stay
		"/** Downloads one file. */",               // comments stay
		"int slots = 0;",                           // slots is only Qt's after an access keyword
		"    public:\n",                            // signals: becomes public:
		"void setUrl(const QString &url) override", // a macro that stands for a keyword
		"m_timer = nullptr",
	} {
		if !strings.Contains(s, kept) {
			t.Errorf("%q missing in:\n%s", kept, s)
		}
	}
	// C rules: export macros before declarations, not an enum constant
	c := loadMacros("c.txt")
	in := "LUA_API int lua_gettop (lua_State *L);\nenum { MY_API, OTHER_API = 2 };\n" +
		"G_BEGIN_DECLS\nint f(void) __attribute__((nonnull(1)));\n#define LUA_API extern\nG_END_DECLS\n"
	sp := func(s string) string { return strings.Repeat(" ", len(s)) }
	want := sp("LUA_API") + " int lua_gettop (lua_State *L);\nenum { MY_API, OTHER_API = 2 };\n" +
		sp("G_BEGIN_DECLS") + "\nint f(void) " + sp("__attribute__((nonnull(1)))") + ";\n#define LUA_API extern\n" + sp("G_END_DECLS") + "\n"
	if got := string(c.blank([]byte(in))); got != want {
		t.Errorf("C blanking:\n%s\nwant:\n%s", got, want)
	}
	// attribute macros after a declarator go, a macro call in a body stays
	in = "REDIS_API void log_at(int level, const char *fmt, ...) REDIS_ATTR FMT_PRINTF(2, 3);\n" +
		"static void f(int x) {\n\tif (x) LOG_ERROR(x);\n}\n"
	want = sp("REDIS_API") + " void log_at(int level, const char *fmt, ...) " + sp("REDIS_ATTR FMT_PRINTF(2, 3)") + ";\n" +
		"static void f(int x) {\n\tif (x) LOG_ERROR(x);\n}\n"
	if got := string(c.blank([]byte(in))); got != want {
		t.Errorf("C blanking:\n%s\nwant:\n%s", got, want)
	}
	// a source with nothing to blank is not copied
	plain := []byte("int main(void) { return 0; }\n")
	if out := c.blank(plain); &out[0] != &plain[0] {
		t.Errorf("an unchanged source was copied")
	}
}

func TestParseMacros(t *testing.T) {
	rules, err := parseMacros([]byte("# comment\nA_B(...) => x [before name]\nsignals => public [line start] [before :]\n"))
	if err != nil || len(rules) != 2 || !rules[0].args || rules[0].repl != "x" || rules[0].cond != condBeforeName ||
		rules[1].name != "signals" || rules[1].cond != condLineStart|condBeforeColon {
		t.Fatalf("rules %+v, %v", rules, err)
	}
	for _, bad := range []string{"A [nowhere]\n", "AB => toolong\n", "A-B\n"} {
		if _, err := parseMacros([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	for pat, names := range map[string][2]string{"*_EXPORT": {"Q_CORE_EXPORT", "_EXPORT"}, "G_GNUC_*": {"G_GNUC_CONST", "G_GNUC_"},
		"*_AVAILABLE_IN_*": {"GLIB_AVAILABLE_IN_2_68", "GLIB_AVAILABLE_IN_"}} {
		if !globUpper(pat, names[0]) || globUpper(pat, names[1]) {
			t.Errorf("%s: %s should match, %s not", pat, names[0], names[1])
		}
	}
}

// Lua declares its API as "LUAMOD_API int (luaopen_base) (lua_State *L);":
// with the export macro blanked, the parenthesised name is a function, not
// a pointer to one.
func TestExportedParenthesisedName(t *testing.T) {
	f := extractLoose(t, "lua/lualib.h", "#define LUAMOD_API extern\nLUAMOD_API int (luaopen_base) (lua_State *L);\n"+
		"struct hooks { int (*on_open)(lua_State *L); };\n")
	if len(f.Errors) > 0 {
		t.Errorf("parse errors: %+v", f.Errors)
	}
	syms := syms(f)
	langtest.WantAll(t, syms, "function luaopen_base exported")
	for _, s := range syms {
		if strings.HasPrefix(s, "function on_open") || strings.HasPrefix(s, "function int") {
			t.Errorf("%s: a pointer field or a type taken for a function", s)
		}
	}
}

// Conditional compilation that splits a construct is read one branch at a
// time; whole-statement branches stay for tree-sitter to parse.
func TestConditionalBranches(t *testing.T) {
	header := "#ifndef KV_H\n#define KV_H\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n" +
		"int kv_get(const char *key);\n\n#ifdef __cplusplus\n}\n#endif\n#endif\n"
	for _, p := range []string{"include/kv.h", "include/kv.hpp"} {
		f := extractLoose(t, p, header)
		if len(f.Errors) > 0 {
			t.Errorf("%s: parse errors %+v", p, f.Errors)
		}
		langtest.WantAll(t, syms(f), "function kv_get exported")
	}
	src := `static int open_file(const char *path)
{
#ifdef _WIN32
    if (win_open(path)) {
#else
    if (posix_open(path,
#ifdef O_CLOEXEC
                   O_CLOEXEC |
#endif
                   O_RDONLY)) {
#endif
        return 1;
    }
#if defined(HAVE_LOG)
    log_open(path);
#else
    trace_open(path);
#endif
    return 0;
}

int after(void) { return open_file("x"); }
`
	f := extractLoose(t, "src/file.c", src)
	if len(f.Errors) > 0 {
		t.Errorf("parse errors %+v", f.Errors)
	}
	// the first branch of the split "if" is read; both branches of the
	// whole-statement group stay
	langtest.WantAll(t, refs(f), "open_file call win_open", "open_file call log_open", "open_file call trace_open", "after call open_file")
	for _, r := range refs(f) {
		if strings.Contains(r, "posix_open") {
			t.Errorf("a branch not read still yields %s", r)
		}
	}
	out := loadMacros("c.txt").blank([]byte(src))
	if len(out) != len(src) || bytes.Count(out, []byte("\n")) != strings.Count(src, "\n") ||
		!bytes.Contains(out, []byte("#if defined(HAVE_LOG)")) || bytes.Contains(out, []byte("#ifdef _WIN32")) {
		t.Errorf("blanked:\n%s", out)
	}
}

// FuzzMacroBlank: whatever the input, blanking keeps every byte offset and
// line break where it was, and only ever writes spaces or a replacement.
func FuzzMacroBlank(f *testing.F) {
	f.Add(qtHeaderSrc)
	f.Add("#if X\nf(a,\n#else\ng(b,\n#endif\nc);\n")
	f.Add("Q_PROPERTY(unterminated\nsignals\n: \"x\\\n")
	cpp := loadMacros("c.txt", "cpp.txt")
	cpp.cplusplus = true
	f.Fuzz(func(t *testing.T, src string) {
		out := cpp.blank([]byte(src))
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		for i := range out {
			if (src[i] == '\n') != (out[i] == '\n') {
				t.Fatalf("line break moved at %d", i)
			}
		}
	})
}

// A [[nodiscard]] macro before a member (CLI11's CLI11_NODISCARD, 209 uses)
// is blanked like an export macro: "CLI11_NODISCARD const std::string
// &get_group() const" was a syntax error that lost the method.
func TestNodiscardMacro(t *testing.T) {
	f := langtest.Extract(t, "include/CLI/Option.hpp", `namespace CLI {
class OptionBase {
  public:
    CLI11_NODISCARD const std::string &get_group() const { return group_; }
    CLI11_NODISCARD CLI11_INLINE char **ensure_utf8(char **argv);
};
}
`)
	g := langtest.Sym(t, f, "CLI.OptionBase.get_group")
	if g.Kind != lang.KindMethod || g.Signature.Text != "const std::string &get_group() const" {
		t.Errorf("get_group: kind %s, signature %q", g.Kind, g.Signature.Text)
	}
	langtest.Sym(t, f, "CLI.OptionBase.ensure_utf8")
}
