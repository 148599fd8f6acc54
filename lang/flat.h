#ifndef SDL_FLAT_H_
#define SDL_FLAT_H_

#include <stdint.h>
#include "tree_sitter/api.h"

enum {
  SDL_NAMED = 1,
  SDL_ERROR = 2,
  SDL_MISSING = 4,
  SDL_EXTRA = 8,
  SDL_HAS_ERROR = 16,
};

// sdl_node must match lang.Node field for field.
typedef struct {
  uint16_t kind;
  uint16_t field;
  uint16_t flags;
  uint16_t pad;
  int32_t parent;
  int32_t end;
  uint32_t start_byte, end_byte;
  uint32_t start_row, start_col, end_row, end_col;
} sdl_node;

TSTree *sdl_parse(TSParser *parser, const TSLanguage *lang, const char *src, uint32_t len,
                  uint64_t timeout_ms, uint32_t *node_count);
uint32_t sdl_flatten(TSTree *tree, const char *src, sdl_node *out, uint32_t cap);
void sdl_tree_delete(TSTree *tree);
void sdl_use_libc_allocator(void);
void sdl_release_memory(void);



// sdl_capture is one capture of a query match: the match it belongs to,
// the pattern and capture ids, and the node by its range and symbol, which
// find it again in the flattened tree.
typedef struct {
  uint32_t match;
  uint16_t pattern;
  uint16_t capture;
  uint32_t start_byte, end_byte;
  uint16_t symbol;
  uint16_t pad;
} sdl_capture;

// SDL_QUERY_MATCH_LIMIT bounds the matches a query cursor keeps in
// progress; editors use a few hundred.
#define SDL_QUERY_MATCH_LIMIT 1024
// SDL_QUERY_MAX_DEPTH is the deepest node a pattern may start at: code
// nests far less, and a hostile file nested thousands deep would cost a
// query time quadratic in its depth.
#define SDL_QUERY_MAX_DEPTH 400

sdl_capture *sdl_query_captures(TSTree *tree, const TSQuery *query, uint32_t max_captures, uint32_t *count);
sdl_capture *sdl_query_captures_at(TSTree *tree, const char *src, const sdl_node *nodes, uint32_t n_nodes,
                                   const TSQuery *query, const uint32_t *roots, uint32_t n_roots,
                                   uint32_t max_captures, uint32_t *count);
#endif
