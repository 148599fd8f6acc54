#ifndef KV_SERVER_H
#define KV_SERVER_H

#include "kv/store.h"

/** Serves the store on a TCP port until a client sends QUIT. */
int serve(kv_store *store, int port);

/** Runs the backup command named by KV_BACKUP_CMD. */
int run_backup(void);

#endif
