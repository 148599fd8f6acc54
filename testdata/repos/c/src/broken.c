#include "kv/store.h"

/* Counts the entries of a store. */
int kv_count(const kv_store *s)
{
    return s->count;
}

int kv_broken(kv_store *s {
    return kv_put(s, "x", ;
}

int kv_after(const kv_store *s)
{
    return kv_count(s) + 1;
}
