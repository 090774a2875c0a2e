#ifndef MIGRANT_CHAT_CURL_LOADER_H
#define MIGRANT_CHAT_CURL_LOADER_H

/// Why libcurl could not be loaded (dlopen's words), or NULL when it is loaded;
/// tries to load it first if nothing has yet.
const char *mc_curl_load_error(void);

#endif
