#ifndef MIGRANT_CHAT_CURL_LOADER_H
#define MIGRANT_CHAT_CURL_LOADER_H

#include <stddef.h>

/// Why libcurl could not be loaded (dlopen's words), or NULL when it is loaded;
/// tries to load it first if nothing has yet.
const char *mc_curl_load_error(void);

/// The version of the libcurl this process runs with ("7.88.1"), read from the
/// file the first connection will load when that file is certain, or else asked
/// of libcurl, loading it; NULL when it cannot be loaded. See version.c.
const char *mc_curl_runtime_version(void);

/// Copies to `path` the one file /etc/ld.so.cache (or `cachePath`) names for
/// `name` on this machine's kind; 0 when it names none, several, a glibc-hwcaps
/// variant, or the cache cannot be read.
int mc_curl_cache_lookup(const char *cachePath, const char *name, char *path, size_t pathSize);

/// Copies to `version` the version in the one "libcurl/VERSION" string of the file
/// at `libraryPath`; 0 when it holds none, or two different ones.
int mc_curl_version_in_file(const char *libraryPath, char *version, size_t versionSize);

#endif
