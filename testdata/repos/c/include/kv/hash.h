#ifndef KV_HASH_H
#define KV_HASH_H

#include <stdint.h>

/// Hashes a string with FNV-1a.
uint32_t kv_hash(const char *s);

/// The bucket of a key in a table of n buckets.
static inline unsigned kv_bucket(const char *key, unsigned n)
{
    return kv_hash(key) % n;
}

#endif
