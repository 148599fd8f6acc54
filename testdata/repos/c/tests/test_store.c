#include <assert.h>
#include <string.h>
#include "kv/store.h"
#include "../src/backend/backend.h"

static int saves;

static void *null_open(const char *path) { (void)path; return NULL; }
static int null_save(void *state, const char *key, const char *value) { saves++; return KV_OK; }
static int null_close(void *state) { return KV_OK; }

static const struct kv_backend null_backend = { "null", null_open, null_save, null_close };

static void test_put_get(void)
{
    kv_store *s = kv_open(&null_backend, "unused");
    assert(kv_put(s, "a", "1") == KV_OK);
    assert(strcmp(kv_get(s, "a"), "1") == 0);
    kv_close(s);
}

static void test_close_saves_every_entry(void)
{
    kv_store *s = kv_open(&null_backend, "unused");
    kv_put(s, "a", "1");
    kv_put(s, "b", "2");
    kv_close(s);
    assert(saves == 2);
}

int main(void)
{
    test_put_get();
    test_close_saves_every_entry();
    return 0;
}
