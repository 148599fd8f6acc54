#ifndef KV_BACKEND_H
#define KV_BACKEND_H

#include "kv/store.h"

/**
 * A place entries are saved to: a table of operations, filled in by each
 * backend.
 */
struct kv_backend {
    const char *name;
    void *(*open)(const char *path);
    int (*save)(void *state, const char *key, const char *value);
    int (*close)(void *state);
};

/** The backend that saves to a plain file. */
extern const struct kv_backend file_backend;

#endif
