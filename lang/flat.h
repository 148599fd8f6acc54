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

#endif
