#include "kv/hash.h"

#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

uint32_t kv_hash(const char *s)
{
    uint32_t h = FNV_OFFSET;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= FNV_PRIME;
    }
    return h;
}
