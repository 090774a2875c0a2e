#ifndef MIGRANT_CHAT_CURL_LOADER_H
#define MIGRANT_CHAT_CURL_LOADER_H

#include <stddef.h>

/// Why libcurl could not be loaded (dlopen's words), or NULL when it is loaded;
/// tries to load it first if nothing has yet.
const char *mc_curl_load_error(void);

/// Starts loading libcurl on a thread of its own and returns at once: a chat with a
/// server loads it (and its 30 libraries, ~10 ms) while it opens its stores, rather
/// than after, before its first request. Later calls do nothing.
void mc_curl_preload(void);

/// The version of the libcurl this process runs with ("7.88.1"), asked of
/// libcurl (loading it if nothing has yet); NULL when it cannot be loaded.
const char *mc_curl_runtime_version(void);

#endif
