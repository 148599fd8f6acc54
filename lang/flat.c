// The bridge between Go and the tree-sitter runtime that go-tree-sitter
// compiles into the binary. A file costs two cgo crossings: sdl_parse parses
// it and reports how many nodes the tree has; sdl_flatten copies the whole
// tree, in pre-order, into a Go-allocated array and frees the tree. All
// extraction then runs in Go over that array without further crossings.

#include "flat.h"

// tree-sitter's own layouts, copied from go-tree-sitter v0.25.0's src/
// (TestInternalHeadersMatch): sdl_flatten reads subtrees directly.
#include "ts/language.h"
#include "ts/subtree.h"
#include "ts/tree.h"

#include <string.h>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#ifdef _WIN32
#include <windows.h>
#endif

typedef struct {
  const char *src;
  uint32_t len;
  uint64_t deadline_ns;
  uint32_t calls;
} sdl_input;

static const char *sdl_read(void *payload, uint32_t byte_index, TSPoint position, uint32_t *bytes_read) {
  (void)position;
  sdl_input *in = (sdl_input *)payload;
  if (byte_index >= in->len) {
    *bytes_read = 0;
    return "";
  }
  *bytes_read = in->len - byte_index;
  return in->src + byte_index;
}

#ifdef _WIN32
// Windows has no clock_gettime; a millisecond tick is enough for a deadline.
static uint64_t sdl_now_ns(void) { return (uint64_t)GetTickCount64() * 1000000ull; }
#else
static uint64_t sdl_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
#endif

// Returning true cancels the parse. A deadline guards against grammars that
// take pathologically long on hostile input.
// The clock is read on every 1024th call only: the callback runs often.
static bool sdl_progress(TSParseState *state) {
  sdl_input *in = (sdl_input *)state->payload;
  if (in->deadline_ns == 0 || (++in->calls & 1023) != 0) {
    return false;
  }
  return sdl_now_ns() > in->deadline_ns;
}

TSTree *sdl_parse(TSParser *parser, const TSLanguage *lang, const char *src, uint32_t len,
                  uint64_t timeout_ms, uint32_t *node_count) {
  *node_count = 0;
  if (!ts_parser_set_language(parser, lang)) {
    return NULL;
  }
  sdl_input in = {src, len, 0, 0};
  if (timeout_ms > 0) {
    in.deadline_ns = sdl_now_ns() + timeout_ms * 1000000ull;
  }
  TSInput input = {&in, sdl_read, TSInputEncodingUTF8, NULL};
  TSParseOptions opts = {&in, sdl_progress};
  TSTree *tree = ts_parser_parse_with_options(parser, NULL, input, opts);
  if (tree == NULL) {
    ts_parser_reset(parser);
    return NULL;
  }
  *node_count = ts_node_descendant_count(ts_tree_root_node(tree));
  return tree;
}

// sdl_flatten writes at most cap nodes in pre-order. end[i] is the index one
// past the last descendant of node i, so node i's children are i+1,
// end[i+1], ... up to end[i]. It returns the number of nodes written; the
// tree is always freed.
//
// Anonymous leaves made only of punctuation ("(", ",", "+=") are not written:
// they are about a third of all nodes, extraction never needs them, and the
// fingerprint reads them from the source text between the leaves it keeps.
// ts_builtin_sym_error: the symbol of an ERROR node (ts_node_is_error).
#define SDL_SYM_ERROR ((TSSymbol)-1)

static bool sdl_punct_leaf(TSNode node, bool named, uint32_t b, uint32_t e, const char *src) {
  if (named || e <= b || ts_node_child_count(node) > 0) {
    return false;
  }
  unsigned char c = (unsigned char)src[b];
  return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80);
}

// sdl_punct_at reports whether the cursor's node is one sdl_flatten
// leaves out.
static bool sdl_punct_at(const TSTreeCursor *cur, const char *src) {
  TSNode node = ts_tree_cursor_current_node(cur);
  return sdl_punct_leaf(node, ts_node_is_named(node), ts_node_start_byte(node), ts_node_end_byte(node), src);
}

// sdl_write writes the node of subtree c at start (after its padding),
// as aliased, as node i of out. It returns false when the node is one
// sdl_flatten leaves out (sdl_punct_leaf), and then i is free again.
static bool sdl_write(sdl_node *out, uint32_t i, const char *src, const TSLanguage *lang, Subtree c, Length start,
                      TSSymbol alias, TSFieldId field, int32_t parent) {
  sdl_node *o = &out[i];
  TSSymbol sym = ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(c));
  bool named = alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(c);
  Length size = ts_subtree_size(c);
  TSPoint end = point_add(start.extent, size.extent);
  o->kind = sym;
  o->field = field;
  uint16_t flags = 0;
  if (named) flags |= SDL_NAMED;
  if (sym == SDL_SYM_ERROR) flags |= SDL_ERROR; // ts_node_is_error
  if (ts_subtree_missing(c)) flags |= SDL_MISSING;
  if (ts_subtree_extra(c)) flags |= SDL_EXTRA;
  if (ts_subtree_error_cost(c) > 0) flags |= SDL_HAS_ERROR; // ts_node_has_error
  o->flags = flags;
  o->pad = 0;
  o->parent = parent;
  o->end = (int32_t)i + 1; // until its children are written
  o->start_byte = start.bytes;
  o->end_byte = start.bytes + size.bytes;
  o->start_row = start.extent.row;
  o->start_col = start.extent.column;
  o->end_row = end.row;
  o->end_col = end.column;
  // as sdl_punct_leaf reads the node: no visible children
  if (named || size.bytes == 0 || ts_subtree_visible_child_count(c) > 0) return true;
  unsigned char b = (unsigned char)src[start.bytes];
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b >= 0x80;
}

// sdl_frame is a node whose children sdl_flatten is writing: its subtree,
// the position and indices of its next child, the index of the nearest
// written ancestor (itself when it is visible), and, for a hidden node,
// the field its parents give it, which its children inherit.
typedef struct {
  Subtree subtree;
  const TSSymbol *aliases;
  Length pos;
  uint32_t child, structural;
  int32_t written;
  TSFieldId field;
  bool visible;
} sdl_frame;

// sdl_field is the field the production of parent gives its child at
// structural index i (inherited entries aside), or 0.
static TSFieldId sdl_field(const TSLanguage *lang, Subtree parent, uint32_t i) {
  const TSFieldMapEntry *m, *end;
  ts_language_field_map(lang, parent.ptr->production_id, &m, &end);
  for (; m < end; m++) {
    if (!m->inherited && m->child_index == i) return m->field_id;
  }
  return 0;
}

// sdl_flatten walks tree-sitter's subtrees themselves rather than a
// TSTreeCursor: the cursor's moves (the next sibling above all, which
// re-derives its parent's children and climbs through hidden nodes) were
// most of the flatten's time. It writes what the cursor shows, node for
// node: the visible nodes (named, anonymous, or made visible by an
// alias), each with its alias's symbol, the field its parent or hidden
// ancestors give it (ts_tree_cursor_current_field_id), and its facts as
// ts_node_* reads them.
uint32_t sdl_flatten(TSTree *tree, const char *src, sdl_node *out, uint32_t cap) {
  const TSLanguage *lang = tree->language;
  uint32_t n = 0, depth = 0, stack_cap = 256;
  sdl_frame *stack = (sdl_frame *)malloc(stack_cap * sizeof(sdl_frame));
  Subtree root = tree->root;
  Length pos = ts_subtree_padding(root);
  if (stack == NULL || cap == 0) {
    goto done;
  }
  // the root, which the cursor shows whatever its visibility
  if (!sdl_write(out, n, src, lang, root, pos, 0, 0, -1)) {
    goto done;
  }
  n++;
  stack[depth++] = (sdl_frame){root, ts_subtree_child_count(root) ? ts_language_alias_sequence(lang, root.ptr->production_id) : NULL,
                               pos, 0, 0, 0, 0, true};
  while (depth > 0) {
    sdl_frame *f = &stack[depth - 1];
    if (f->child == ts_subtree_child_count(f->subtree)) {
      if (f->visible) out[f->written].end = (int32_t)n;
      depth--;
      continue;
    }
    Subtree c = ts_subtree_children(f->subtree)[f->child];
    Length start = f->pos;
    uint32_t structural = f->structural;
    bool extra = ts_subtree_extra(c);
    TSSymbol alias = 0;
    if (!extra) {
      if (f->aliases) alias = f->aliases[structural];
      f->structural++;
    }
    // on to the next child's start
    f->pos = length_add(f->pos, ts_subtree_size(c));
    f->child++;
    if (f->child < ts_subtree_child_count(f->subtree)) {
      f->pos = length_add(f->pos, ts_subtree_padding(ts_subtree_children(f->subtree)[f->child]));
    }
    TSFieldId field = 0;
    if (!extra) {
      field = sdl_field(lang, f->subtree, structural);
      if (field == 0) field = f->field;
    }
    bool visible = ts_subtree_visible(c) || alias != 0;
    int32_t written = f->written;
    if (visible) {
      if (n >= cap) break;
      if (!sdl_write(out, n, src, lang, c, start, alias, field, f->written)) {
        continue; // left out, and it has no children
      }
      written = (int32_t)n++;
      field = 0; // a visible node's children inherit no field through it
    }
    if (ts_subtree_visible_child_count(c) == 0) {
      continue;
    }
    if (depth == stack_cap) {
      sdl_frame *grown = (sdl_frame *)realloc(stack, 2 * stack_cap * sizeof(sdl_frame));
      if (grown == NULL) break;
      stack = grown;
      stack_cap *= 2;
    }
    stack[depth++] = (sdl_frame){c, ts_language_alias_sequence(lang, c.ptr->production_id), start, 0, 0, written,
                                 extra ? 0 : field, visible};
  }
  // close anything left open when stopping early
  while (depth > 0) {
    sdl_frame *f = &stack[--depth];
    if (f->visible) out[f->written].end = (int32_t)n;
  }
done:
  free(stack);
  ts_tree_delete(tree);
  return n;
}

void sdl_tree_delete(TSTree *tree) { ts_tree_delete(tree); }

// go-tree-sitter routes every tree-sitter allocation through a Go callback
// (C -> Go -> C.malloc), which costs a cgo round trip per malloc. sdl
// allocates nothing through it, so libc serves tree-sitter directly.
//
// glibc's fast bins are off: a tree freed after its flatten fills them
// with its nodes, and the next parse's first larger allocation then
// consolidates them all (malloc_consolidate). Without them glibc's malloc
// and free cost about a third less against the parse (perf samples of a
// single-threaded parse and flatten of GOROOT/src: 0.16 -> 0.11 of the
// parser's own), and C is used by tree-sitter alone (SQLite's allocator
// is Go's).
void sdl_use_libc_allocator(void) {
#if defined(__GLIBC__)
  mallopt(M_MXFAST, 0);
#endif
  ts_set_allocator(malloc, calloc, realloc, free);
}

// collect appends the captures of cur's matches to *out (of *cap
// entries, *n used), up to max in all; it returns 0 when an allocation
// failed (what was collected stays).
static int collect(TSQueryCursor *cur, sdl_capture **out, uint32_t *n, uint32_t *cap, uint32_t *match_no,
                   uint32_t max) {
  TSQueryMatch m;
  while (*n < max && ts_query_cursor_next_match(cur, &m)) {
    for (uint16_t i = 0; i < m.capture_count && *n < max; i++) {
      if (*n == *cap) {
        sdl_capture *grown = (sdl_capture *)realloc(*out, 2 * *cap * sizeof(sdl_capture));
        if (grown == NULL) {
          return 0;
        }
        *out = grown;
        *cap *= 2;
      }
      TSNode node = m.captures[i].node;
      sdl_capture *c = &(*out)[(*n)++];
      c->match = *match_no;
      c->pattern = m.pattern_index;
      c->capture = (uint16_t)m.captures[i].index;
      c->start_byte = ts_node_start_byte(node);
      c->end_byte = ts_node_end_byte(node);
      c->symbol = ts_node_symbol(node);
      c->pad = 0;
    }
    (*match_no)++;
  }
  return 1;
}

// sdl_query_captures runs query over the whole tree and returns its
// matches' captures in a malloc'd array (the caller frees it), at most
// max_captures of them: hostile input cannot make it grow without end.
sdl_capture *sdl_query_captures(TSTree *tree, const TSQuery *query, uint32_t max_captures, uint32_t *count) {
  *count = 0;
  TSQueryCursor *cur = ts_query_cursor_new();
  if (cur == NULL) {
    return NULL;
  }
  // A bound on the matches in progress at once keeps a hostile file
  // (thousands of open nestings) from costing quadratic time.
  ts_query_cursor_set_match_limit(cur, SDL_QUERY_MATCH_LIMIT);
  ts_query_cursor_set_max_start_depth(cur, SDL_QUERY_MAX_DEPTH);
  ts_query_cursor_exec(cur, query, ts_tree_root_node(tree));
  uint32_t n = 0, cap = 64, match_no = 0;
  sdl_capture *out = (sdl_capture *)malloc(cap * sizeof(sdl_capture));
  if (out != NULL) {
    collect(cur, &out, &n, &cap, &match_no, max_captures);
  }
  ts_query_cursor_delete(cur);
  *count = n;
  return out;
}

// sdl_query_captures_at runs query from each of n_roots nodes of the
// flattened tree nodes (n_nodes of them, which sdl_flatten made of tree
// and src), given by index in ascending order, and returns the captures
// of its matches as sdl_query_captures does. A pattern starts at a root
// only (max start depth 0), so the query cursor descends no deeper below
// it than the pattern reaches.
//
// One tree cursor moves forward from root to root, retracing the
// flatten's pre-order and skipping every subtree that holds no root: a
// search from the tree's top per root (and ts_node_parent, which descends
// from the top again) cost 2.5x as much on GOROOT/src.
sdl_capture *sdl_query_captures_at(TSTree *tree, const char *src, const sdl_node *nodes, uint32_t n_nodes,
                                   const TSQuery *query, const uint32_t *roots, uint32_t n_roots,
                                   uint32_t max_captures, uint32_t *count) {
  *count = 0;
  TSQueryCursor *cur = ts_query_cursor_new();
  if (cur == NULL) {
    return NULL;
  }
  ts_query_cursor_set_match_limit(cur, SDL_QUERY_MATCH_LIMIT);
  ts_query_cursor_set_max_start_depth(cur, 0);
  TSTreeCursor tc = ts_tree_cursor_new(ts_tree_root_node(tree));
  uint32_t i = 0; // the index in nodes of tc's node
  uint32_t n = 0, cap = 64, match_no = 0;
  sdl_capture *out = (sdl_capture *)malloc(cap * sizeof(sdl_capture));
  for (uint32_t r = 0; r < n_roots && out != NULL && n < max_captures && n_nodes > 0; r++) {
    uint32_t want = roots[r];
    if (want < i || want >= n_nodes) {
      continue; // not ascending, or not a node: nothing to run from
    }
    while (i != want) {
      if (want < (uint32_t)nodes[i].end) {
        // want is below: down to the first child the flatten kept, i+1
        if (!ts_tree_cursor_goto_first_child(&tc)) goto lost;
        while (sdl_punct_at(&tc, src)) {
          if (!ts_tree_cursor_goto_next_sibling(&tc)) goto lost;
        }
        i++;
        continue;
      }
      // want is after i's subtree: on to the next kept sibling, which
      // the flatten wrote just past that subtree, climbing where i was
      // the last
      for (;;) {
        if (ts_tree_cursor_goto_next_sibling(&tc)) {
          if (!sdl_punct_at(&tc, src)) {
            i = (uint32_t)nodes[i].end;
            break;
          }
          continue;
        }
        if (nodes[i].parent < 0 || !ts_tree_cursor_goto_parent(&tc)) goto lost;
        i = (uint32_t)nodes[i].parent;
      }
    }
    TSNode node = ts_tree_cursor_current_node(&tc);
    // the walk retraces the flatten's, so these hold; if they did not,
    // the flat tree is not this tree's and nothing more is run
    if (ts_node_symbol(node) != nodes[i].kind || ts_node_start_byte(node) != nodes[i].start_byte ||
        ts_node_end_byte(node) != nodes[i].end_byte) {
      goto lost;
    }
    ts_query_cursor_exec(cur, query, node);
    if (!collect(cur, &out, &n, &cap, &match_no, max_captures)) {
      break;
    }
  }
lost:
  ts_tree_cursor_delete(&tc);
  ts_query_cursor_delete(cur);
  *count = n;
  return out;
}

// sdl_release_memory gives the C heap's free pages back to the system.
// glibc keeps what trees freed in one arena per thread that parsed, and
// cgo calls run on many threads: on GOROOT/src tens of MB stay resident
// after the last parse unless trimmed. Elsewhere it does nothing.
void sdl_release_memory(void) {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}
