package c

import (
	"strings"
	"testing"

	"github.com/sdl-dev/sdl/lang/langtest"
)

// libuv's uv.h is a C header that offers C++ callers an overload in a
// "#ifdef __cplusplus" branch: it was read as C++, and as C its C++ branch
// was a syntax error.
func TestCHeaderWithCppBranch(t *testing.T) {
	src := "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\nint uv_tty_set_mode(uv_tty_t*, uv_tty_mode_t mode);\n\n" +
		"#ifdef __cplusplus\nextern \"C++\" {\n\ninline int uv_tty_set_mode(uv_tty_t* handle, int mode) {\n" +
		"  return uv_tty_set_mode(handle, static_cast<uv_tty_mode_t>(mode));\n}\n\n}\n#endif\n\n" +
		"int uv_guess_handle(int file);\n\n#ifdef __cplusplus\n}\n#endif\n"
	if looksLikeCpp([]byte(src)) {
		t.Errorf("a C header with a C++ branch taken for C++")
	}
	if !looksLikeCpp([]byte("#ifdef __cplusplus\n#else\n#endif\nnamespace a {}\n")) {
		t.Errorf("a namespace after the branch went unseen")
	}
	f := langtest.Extract(t, "include/uv.h", src)
	if f.Lang != "c" {
		t.Errorf("read as %s", f.Lang)
	}
	langtest.WantAll(t, syms(f), "function uv_tty_set_mode exported", "function uv_guess_handle exported")
}

// libuv declares its handles' members with macros written without a
// semicolon, and comments their definitions line by line: every struct of
// uv.h after the first such macro was lost.
func TestMemberMacros(t *testing.T) {
	src := `#define UV_HANDLE_FIELDS                                                      \
  /* public */                                                                \
  void* data;                                                                 \
  /* read-only */                                                             \
  uv_loop_t* loop;                                                            \
  UV_HANDLE_PRIVATE_FIELDS                                                    \

/* The abstract base class of all handles. */
struct uv_handle_s {
  UV_HANDLE_FIELDS
};

struct uv_stream_s {
  UV_HANDLE_FIELDS
  size_t write_queue_size;
  UV_STREAM_PRIVATE_FIELDS
};

union uv_any_handle {
  UV_HANDLE_TYPE_MAP(XX)
};

enum uv_run_mode {
  UV_RUN_DEFAULT = 0,
  UV_RUN_NOWAIT
};

int uv_run(uv_loop_t*, enum uv_run_mode mode);
`
	f := langtest.Extract(t, "include/uv.h", src)
	langtest.WantAll(t, syms(f), "class uv_handle_s exported", "class uv_stream_s exported", "class uv_any_handle exported",
		"function uv_run exported")
	if fs := langtest.Sym(t, f, "uv_stream_s").Signature.Fields; len(fs) != 1 || fs[0].Name != "write_queue_size" {
		t.Errorf("uv_stream_s fields %+v", fs)
	}
	// an enumerator alone on its line stays: an enum body holds no members
	out := string(loadMacros("c.txt").blank([]byte(src)))
	if !strings.Contains(out, "  UV_RUN_NOWAIT\n") || strings.Contains(out, "UV_STREAM_PRIVATE_FIELDS\n") ||
		!strings.Contains(out, "  UV_HANDLE_PRIVATE_FIELDS ") {
		t.Errorf("blanked:\n%s", out)
	}
}

// Code libuv writes inside functions: a type as a macro's argument
// (container_of), a conditional inside an initializer, and a Windows
// calling convention.
func TestCodeMacros(t *testing.T) {
	src := `static void poll_cb(uv_timer_t* timer) {
  struct poll_ctx* ctx;
  ctx = container_of(timer, struct poll_ctx, timer_handle);
  ctx->n = sizeof(struct poll_ctx) + offsetof(struct poll_ctx, n);
  poll_next(ctx);
}

int uv__cpu_num(void) {
  static int mib[][2] = {
# ifdef HW_NCPUONLINE
    { CTL_HW, HW_NCPUONLINE },
# endif
    { CTL_HW, HW_NCPU }
  };
  return count(mib);
}

static DWORD WINAPI uv__thread_start(void* arg) {
  return run(arg);
}

typedef BOOL (WINAPI *sCancelIoEx)(HANDLE hFile, LPOVERLAPPED lpOverlapped);

static void CALLBACK post_completion(void* context, BOOLEAN timed_out) {
  post(context);
}
`
	f := langtest.Extract(t, "src/win/thread.c", src)
	langtest.WantAll(t, syms(f), "function poll_cb internal", "function uv__cpu_num exported", "function uv__thread_start internal",
		"type sCancelIoEx internal", "function post_completion internal")
	langtest.WantAll(t, refs(f), "poll_cb call container_of", "poll_cb call poll_next", "uv__cpu_num call count",
		"uv__thread_start call run", "post_completion call post")
	// sizeof and offsetof take a type: their "struct" stays
	out := string(loadMacros("c.txt").blank([]byte(src)))
	if !strings.Contains(out, "sizeof(struct poll_ctx) + offsetof(struct poll_ctx, n)") {
		t.Errorf("blanked:\n%s", out)
	}
}

// spdlog's spellings of noexcept and constexpr, and its try and catch
// macros.
func TestKeywordMacros(t *testing.T) {
	src := `namespace spdlog {
SPDLOG_CONSTEXPR_FUNC spdlog::string_view_t to_string_view(const memory_buf_t &buf) SPDLOG_NOEXCEPT {
    return spdlog::string_view_t{buf.data(), buf.size()};
}

class logger {
public:
    logger(logger &&other) SPDLOG_NOEXCEPT;
    const char *what() const SPDLOG_NOEXCEPT override;
    void flush_() {
        for (auto &sink : sinks_) {
            SPDLOG_TRY { sink->flush(); }
            SPDLOG_LOGGER_CATCH(source_loc())
        }
    }
};
}
`
	f := langtest.Extract(t, "include/spdlog/logger.h", src)
	langtest.WantAll(t, syms(f), "function spdlog.to_string_view exported", "constructor spdlog.logger.logger public",
		"method spdlog.logger.what public", "method spdlog.logger.flush_ public")
	if m := langtest.Sym(t, f, "spdlog.logger.what"); m.Signature.Text != "const char *what() const noexcept override;" {
		t.Errorf("what: signature %q", m.Signature.Text)
	}
}

// libuv wraps the declarations of its static helpers in a macro that adds
// an attribute, or writes one before them: the functions were lost
// (uv__update_time, heap_insert).
func TestDeclarationMacros(t *testing.T) {
	src := `#if defined(__GNUC__)
# define UV_UNUSED(declaration)     __attribute__((unused)) declaration
#else
# define UV_UNUSED(declaration)     declaration
#endif

HEAP_EXPORT(void heap_insert(struct heap* heap,
                             struct heap_node* newnode,
                             heap_compare_fn less_than));

UV_UNUSED(static void uv__update_time(uv_loop_t* loop)) {
  loop->time = uv__hrtime(UV_CLOCK_FAST) / 1000000;
}

INLINE static void uv__want_endgame(uv_loop_t* loop, uv_handle_t* handle) {
  UV_REQ_INIT(handle, UV_WAKEUP);
}

UNUSED static int can_ipv6(void) {
  return has_ipv6();
}
`
	f := langtest.Extract(t, "src/unix/internal.h", src)
	langtest.WantAll(t, syms(f), "function heap_insert exported", "function uv__update_time internal",
		"function uv__want_endgame internal", "function can_ipv6 internal")
	langtest.WantAll(t, refs(f), "uv__update_time call uv__hrtime", "uv__want_endgame call UV_REQ_INIT", "can_ipv6 call has_ipv6")
	if s := langtest.Sym(t, f, "uv__update_time").Signature.Text; s != "static void uv__update_time(uv_loop_t* loop)" {
		t.Errorf("uv__update_time: signature %q", s)
	}
	// in code a macro call stays whole: a loop macro's arguments are no
	// declaration
	in := "void f(void) {\n  QUEUE_FOREACH(q, head(h)) {\n    g(q);\n  }\n}\n"
	if out := string(loadMacros("c.txt").blank([]byte(in))); out != in {
		t.Errorf("blanked in code:\n%s", out)
	}
}

// A macro alone on its line at file level stands for declarations (libuv's
// UV_PRIVATE_REQ_TYPES, fmt's FMT_MODULE_EXPORT_BEGIN) and took the next
// declaration down with it; a header named in an #if (fmt's
// FMT_HAS_INCLUDE(<string_view>)) made the #if a syntax error.
func TestFileLevelMacros(t *testing.T) {
	src := `#if FMT_HAS_INCLUDE(<string_view>) && \
    (FMT_CPLUSPLUS >= 201703L || defined(_LIBCPP_VERSION))
#  include <string_view>
#elif FMT_HAS_INCLUDE("experimental/string_view")
#  include <experimental/string_view>
#endif

UV_PRIVATE_REQ_TYPES

UV_EXTERN int uv_shutdown(uv_shutdown_t* req, uv_stream_t* handle);

FMT_MODULE_EXPORT_BEGIN
FMT_GCC_PRAGMA("GCC push_options")

int uv_close(uv_handle_t* handle);

static GTK_TYPE
gtk_widget_get_type (void)
{
  return 0;
}

TEST_IMPL(tcp_close)
{
  return run();
}

TEST_BEGIN(test_mallctl_errors) {
	expect_d_eq(mallctl("no_such_name", NULL, NULL, NULL, 0), ENOENT);
}
TEST_END

TEST_BEGIN(test_mallctlnametomib_errors) {
	expect_d_eq(mallctlnametomib("no_such_name", NULL, NULL), ENOENT);
}
TEST_END

enum uv_membership {
  UV_LEAVE_GROUP = 0,
  UV_JOIN_GROUP
};
`
	f := langtest.Extract(t, "include/uv.h", src)
	langtest.WantAll(t, syms(f), "function uv_shutdown exported", "function uv_close exported",
		"function gtk_widget_get_type internal", "type uv_membership exported")
	out := string(loadMacros("c.txt").blank([]byte(src)))
	// jemalloc's TEST_END before the next test's TEST_BEGIN(name) { stays:
	// the grammar reads the two as one definition
	for _, kept := range []string{"static GTK_TYPE\n", "TEST_IMPL(tcp_close)\n", "  UV_JOIN_GROUP\n", "#  include <string_view>",
		"TEST_END\n\nTEST_BEGIN(test_mallctlnametomib_errors) {"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q blanked:\n%s", kept, out)
		}
	}
}
