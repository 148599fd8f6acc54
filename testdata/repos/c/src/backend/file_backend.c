#include <stdio.h>
#include <stdlib.h>
#include "backend.h"
#include "../util/log.h"

/* Opens the file entries are appended to. */
static void *file_open(const char *path)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        LOG_ERROR("cannot open %s", path);
        return NULL;
    }
    return f;
}

static int file_save(void *state, const char *key, const char *value)
{
    FILE *f = state;
    if (fprintf(f, "%s=%s\n", key, value) < 0)
        return KV_IO;
    return KV_OK;
}

static int file_close(void *state)
{
    return fclose((FILE *)state) == 0 ? KV_OK : KV_IO;
}

const struct kv_backend file_backend = {
    .name = "file",
    .open = file_open,
    .save = file_save,
    .close = file_close,
};
