#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "log.h"

static enum log_level min_level = LOG_LEVEL_INFO;

/* Reads KV_LOG once: "debug" enables every line. */
static void init_level(void)
{
    const char *env = getenv("KV_LOG");
    if (env && env[0] == 'd')
        min_level = LOG_LEVEL_DEBUG;
}

void log_write(enum log_level level, const char *fmt, ...)
{
    static int ready;
    va_list ap;
    if (!ready) {
        init_level();
        ready = 1;
    }
    if (level < min_level)
        return;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
