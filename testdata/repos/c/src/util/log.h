#ifndef KV_LOG_H
#define KV_LOG_H

enum log_level { LOG_LEVEL_DEBUG, LOG_LEVEL_INFO, LOG_LEVEL_ERROR };

/** Writes one formatted line to standard error when level is enabled. */
void log_write(enum log_level level, const char *fmt, ...);

#define LOG_INFO(...) log_write(LOG_LEVEL_INFO, __VA_ARGS__)
#define LOG_ERROR(...) log_write(LOG_LEVEL_ERROR, __VA_ARGS__)

#endif
