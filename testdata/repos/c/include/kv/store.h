#ifndef KV_STORE_H
#define KV_STORE_H

#include <stddef.h>
#include "kv/hash.h"

/** The most entries a store holds. */
#define KV_MAX_ENTRIES 1024
/** Reports whether a store has no entries. */
#define KV_EMPTY(s) ((s)->count == 0)

struct kv_backend;

/** One key and its value. */
struct kv_entry {
    char *key;
    char *value;
    struct kv_entry *next;
};

/**
 * A hash table of entries, saved through a backend.
 */
typedef struct kv_store {
    struct kv_entry *buckets[64];
    size_t count;
    const struct kv_backend *backend;
    void *backend_state;
} kv_store;

/** Error codes of the store. */
enum kv_error { KV_OK = 0, KV_FULL, KV_NOT_FOUND, KV_IO };

/** Creates an empty store saved through backend. */
kv_store *kv_open(const struct kv_backend *backend, const char *path);

/**
 * Puts value under key, replacing an older value.
 * Returns KV_FULL when the store holds KV_MAX_ENTRIES entries.
 */
int kv_put(kv_store *s, const char *key, const char *value);

/** Returns the value under key, or NULL. */
const char *kv_get(const kv_store *s, const char *key);

/** Saves every entry through the backend and frees the store. */
int kv_close(kv_store *s);

extern int kv_debug;

#endif /* KV_STORE_H */
