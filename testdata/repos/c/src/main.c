#include <stdio.h>
#include <stdlib.h>
#include "kv/store.h"
#include "backend/backend.h"
#include "net/server.h"

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s FILE PORT\n", prog);
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 3)
        usage(argv[0]);
    kv_store *store = kv_open(&file_backend, argv[1]);
    if (!store)
        return 1;
    int rc = serve(store, atoi(argv[2]));
    run_backup();
    kv_close(store);
    return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
