#include <stdlib.h>
#include <string.h>
#include <assert.h>
#include "kv/store.h"
#include "backend/backend.h"
#include "util/log.h"

int kv_debug = 0;

static struct kv_entry *find_entry(const kv_store *s, const char *key)
{
    struct kv_entry *e = s->buckets[kv_bucket(key, 64)];
    for (; e; e = e->next) {
        if (strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

kv_store *kv_open(const struct kv_backend *backend, const char *path)
{
    kv_store *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->backend = backend;
    s->backend_state = backend->open(path);
    LOG_INFO("opened %s with %s", path, backend->name);
    return s;
}

int kv_put(kv_store *s, const char *key, const char *value)
{
    assert(s != NULL);
    if (s->count >= KV_MAX_ENTRIES)
        return KV_FULL;
    struct kv_entry *e = find_entry(s, key);
    if (e) {
        free(e->value);
        e->value = strdup(value);
        return KV_OK;
    }
    e = malloc(sizeof *e);
    e->key = strdup(key);
    e->value = strdup(value);
    unsigned b = kv_bucket(key, 64);
    e->next = s->buckets[b];
    s->buckets[b] = e;
    s->count++;
    return KV_OK;
}

const char *kv_get(const kv_store *s, const char *key)
{
    const struct kv_entry *e = find_entry(s, key);
    return e ? e->value : NULL;
}

int kv_close(kv_store *s)
{
    int rc = KV_OK;
    for (int i = 0; i < 64; i++) {
        for (struct kv_entry *e = s->buckets[i]; e; e = e->next) {
            if (s->backend->save(s->backend_state, e->key, e->value) != KV_OK)
                rc = KV_IO;
        }
    }
    s->backend->close(s->backend_state);
    free(s);
    return rc;
}
