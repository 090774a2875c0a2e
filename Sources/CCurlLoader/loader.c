// libcurl, loaded on its first call rather than at start.
//
// libcurl 7.88 as Debian builds it brings 30 shared libraries (OpenSSL, GnuTLS
// through OpenLDAP, Kerberos, libssh2, ...): loading them was a third of the time
// to the first offline answer, for commands that never open a connection. So every
// libcurl function this program calls, and those the statically linked
// FoundationNetworking calls, is defined here and forwards to the real one, found
// with dlsym in libcurl.so.4, opened the first time any of them runs. With
// `--as-needed` the linker then records no dependency on libcurl at all.
//
// The definitions are hidden: not exported from the executable, so libcurl's own
// calls to its public functions can never land here.
//
// The variadic setters (curl_easy_setopt and kin) take exactly one value after the
// option, a long, a pointer, a function pointer or a curl_off_t, all one 64-bit
// register on the platforms this builds for (checked below); it is passed on as it
// came, so the callee reads it as it would have.

#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "CCurlLoader.h"

_Static_assert(sizeof(long) == sizeof(void *) && sizeof(curl_off_t) == sizeof(void *),
               "the variadic forwarders pass one 64-bit value");

#define HIDDEN __attribute__((visibility("hidden")))

static void *library;
static char loadError[512];
static pthread_once_t loadOnce = PTHREAD_ONCE_INIT;

static void loadLibrary(void) {
  library = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
  if (!library) {
    // Copied: dlerror's text belongs to this thread, and glibc frees it at the
    // thread's next dl* call or when the thread ends (a Dispatch worker, often).
    const char *detail = dlerror();
    snprintf(loadError, sizeof loadError, "%s",
             detail ? detail : "libcurl.so.4 could not be loaded");
  }
}

/// The real function `name`, or NULL when libcurl or the symbol is missing.
static void *resolve(const char *name) {
  pthread_once(&loadOnce, loadLibrary);
  return library ? dlsym(library, name) : NULL;
}

const char *mc_curl_load_error(void) {
  pthread_once(&loadOnce, loadLibrary);
  return library ? NULL : loadError;
}

static void initializeIfThreadSafe(void);

static void *preload(void *unused) {
  (void)unused;
  pthread_once(&loadOnce, loadLibrary);
  initializeIfThreadSafe();
  return NULL;
}

static void startPreload(void) {
  pthread_t thread;
  // A thread that cannot be started leaves the loading to the first call, as before.
  if (pthread_create(&thread, NULL, preload, NULL) == 0) pthread_detach(thread);
}

void mc_curl_preload(void) {
  static pthread_once_t started = PTHREAD_ONCE_INIT;
  pthread_once(&started, startPreload);
}

// Each forwarder caches its pointer; two threads racing store the same value.
#define REAL(type, name)                                       \
  static type cached;                                          \
  type real = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);      \
  if (!real) {                                                 \
    real = (type)resolve(#name);                               \
    __atomic_store_n(&cached, real, __ATOMIC_RELEASE);         \
  }

#define FORWARD(ret, name, failure, params, args) \
  HIDDEN ret name params {                        \
    typedef ret(*Function) params;                \
    REAL(Function, name)                          \
    return real ? real args : (failure);          \
  }

#define FORWARD_VOID(name, params, args) \
  HIDDEN void name params {              \
    typedef void(*Function) params;      \
    REAL(Function, name)                 \
    if (real) real args;                 \
  }

#define FORWARD_VARIADIC(ret, name, failure, handleType, optionType) \
  HIDDEN ret name(handleType handle, optionType option, ...) {       \
    typedef ret (*Function)(handleType, optionType, ...);            \
    REAL(Function, name)                                             \
    va_list values;                                                  \
    va_start(values, option);                                        \
    void *value = va_arg(values, void *);                            \
    va_end(values);                                                  \
    return real ? real(handle, option, value) : (failure);           \
  }

FORWARD(CURLcode, curl_global_init, CURLE_FAILED_INIT, (long flags), (flags))
FORWARD(CURL *, curl_easy_init, NULL, (void), ())
FORWARD_VOID(curl_easy_cleanup, (CURL *handle), (handle))
FORWARD_VOID(curl_easy_reset, (CURL *handle), (handle))
FORWARD(CURLcode, curl_easy_pause, CURLE_FAILED_INIT, (CURL *handle, int bitmask),
        (handle, bitmask))
FORWARD(const char *, curl_easy_strerror, "libcurl could not be loaded", (CURLcode code),
        (code))
FORWARD_VARIADIC(CURLcode, curl_easy_setopt, CURLE_FAILED_INIT, CURL *, CURLoption)
FORWARD_VARIADIC(CURLcode, curl_easy_getinfo, CURLE_FAILED_INIT, CURL *, CURLINFO)
FORWARD_VOID(curl_free, (void *pointer), (pointer))

FORWARD(CURLM *, curl_multi_init, NULL, (void), ())
FORWARD(CURLMcode, curl_multi_cleanup, CURLM_INTERNAL_ERROR, (CURLM *multi), (multi))
FORWARD(CURLMcode, curl_multi_add_handle, CURLM_INTERNAL_ERROR, (CURLM *multi, CURL *handle),
        (multi, handle))
FORWARD(CURLMcode, curl_multi_remove_handle, CURLM_INTERNAL_ERROR,
        (CURLM *multi, CURL *handle), (multi, handle))
FORWARD(CURLMcode, curl_multi_assign, CURLM_INTERNAL_ERROR,
        (CURLM *multi, curl_socket_t socket, void *pointer), (multi, socket, pointer))
FORWARD(CURLMsg *, curl_multi_info_read, NULL, (CURLM *multi, int *queued), (multi, queued))
FORWARD(CURLMcode, curl_multi_socket_action, CURLM_INTERNAL_ERROR,
        (CURLM *multi, curl_socket_t socket, int events, int *running),
        (multi, socket, events, running))
FORWARD_VARIADIC(CURLMcode, curl_multi_setopt, CURLM_INTERNAL_ERROR, CURLM *, CURLMoption)

FORWARD(CURLSH *, curl_share_init, NULL, (void), ())
FORWARD(CURLSHcode, curl_share_cleanup, CURLSHE_NOT_BUILT_IN, (CURLSH *share), (share))
FORWARD_VARIADIC(CURLSHcode, curl_share_setopt, CURLSHE_NOT_BUILT_IN, CURLSH *, CURLSHoption)

FORWARD(struct curl_slist *, curl_slist_append, NULL,
        (struct curl_slist *list, const char *text), (list, text))
FORWARD_VOID(curl_slist_free_all, (struct curl_slist *list), (list))

FORWARD(CURLU *, curl_url, NULL, (void), ())
FORWARD(CURLUcode, curl_url_get, CURLUE_OUT_OF_MEMORY,
        (CURLU *handle, CURLUPart part, char **text, unsigned int flags),
        (handle, part, text, flags))
FORWARD(CURLUcode, curl_url_set, CURLUE_OUT_OF_MEMORY,
        (CURLU *handle, CURLUPart part, const char *text, unsigned int flags),
        (handle, part, text, flags))

FORWARD(char *, curl_version, (char *)"libcurl (not loaded)", (void), ())
FORWARD(curl_version_info_data *, curl_version_info, NULL, (CURLversion stamp), (stamp))

const char *mc_curl_runtime_version(void) {
  // The forwarder above: loads libcurl if nothing has yet, and asks it.
  curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
  return info && info->version ? info->version : NULL;
}

// libcurl's global start (OpenSSL's, about 4.7 million instructions) on the preload's
// thread too, while the chat opens its stores: the engine's own call then finds it
// done (#50). Only where libcurl makes concurrent calls safe (7.84 and later, built
// thread-safe); elsewhere the engine's call is the only one, as before.
#ifndef CURL_VERSION_THREADSAFE
#define CURL_VERSION_THREADSAFE (1 << 30)
#endif
static void initializeIfThreadSafe(void) {
  if (!library) return;
  curl_version_info_data *info = curl_version_info(CURLVERSION_NOW);
  if (info && (info->features & CURL_VERSION_THREADSAFE)) curl_global_init(CURL_GLOBAL_DEFAULT);
}
