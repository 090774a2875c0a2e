#ifndef MIGRANT_CHAT_CURL_LOADER_H
#define MIGRANT_CHAT_CURL_LOADER_H

/// Why libcurl could not be loaded (dlopen's words), or NULL once it is loaded or
/// while nothing has needed it yet.
const char *mc_curl_load_error(void);

/// Whether libcurl has been loaded into this process (for tests of the start-up).
int mc_curl_is_loaded(void);

#endif
