#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "server.h"
#include "../util/log.h"

#define BUF_SIZE 512

static int handle_line(kv_store *store, char *line, int fd)
{
    char *key = strtok(line, " \n");
    char *value = strtok(NULL, "\n");
    if (key == NULL)
        return -1;
    if (strcmp(key, "QUIT") == 0)
        return 1;
    if (value != NULL)
        return kv_put(store, key, value) == KV_OK ? 0 : -1;
    const char *found = kv_get(store, key);
    if (found)
        send(fd, found, strlen(found), 0);
    return 0;
}

int serve(kv_store *store, int port)
{
    struct sockaddr_in addr;
    char buf[BUF_SIZE];
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        goto fail;
    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, 8) < 0)
        goto fail;
    for (;;) {
        int client = accept(fd, NULL, NULL);
        ssize_t n = recv(client, buf, sizeof buf - 1, 0);
        if (n <= 0)
            break;
        buf[n] = 0;
        if (handle_line(store, buf, client) == 1)
            break;
        close(client);
    }
    close(fd);
    return 0;
fail:
    LOG_ERROR("cannot serve on port %d", port);
    return -1;
}

int run_backup(void)
{
    const char *cmd = getenv("KV_BACKUP_CMD");
    if (!cmd)
        return 0;
    return system(cmd);
}
