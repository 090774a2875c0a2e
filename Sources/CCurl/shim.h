// Typed wrappers around libcurl's variadic calls, so Swift never passes a
// C variadic argument of the wrong type.
#ifndef MIGRANT_CHAT_CCURL_SHIM_H
#define MIGRANT_CHAT_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*mc_curl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*mc_curl_prereq_callback)(void *context, char *primary_ip, char *local_ip,
                                       int primary_port, int local_port);
typedef int (*mc_curl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                         curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode mc_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mc_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

/// libcurl copies strings passed to curl_easy_setopt (since 7.17), except
/// CURLOPT_POSTFIELDS; bodies go through CURLOPT_COPYPOSTFIELDS instead.
static inline CURLcode mc_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mc_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mc_curl_setopt_slist(CURL *handle, CURLoption option,
                                            struct curl_slist *list) {
  return curl_easy_setopt(handle, option, list);
}

static inline CURLcode mc_curl_setopt_write_function(CURL *handle, mc_curl_write_callback f) {
  return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, f);
}

static inline CURLcode mc_curl_setopt_header_function(CURL *handle, mc_curl_write_callback f) {
  return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, f);
}

/// The body, copied by libcurl (CURLOPT_COPYPOSTFIELDS), `length` bytes that may
/// hold zeros: CURLOPT_POSTFIELDSIZE_LARGE is set first, as libcurl asks.
static inline CURLcode mc_curl_setopt_body(CURL *handle, const void *bytes, curl_off_t length) {
  CURLcode result = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, length);
  if (result != CURLE_OK) return result;
  return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, length == 0 ? "" : bytes);
}

/// Called before each request goes out on a connection (libcurl 7.80).
static inline CURLcode mc_curl_setopt_prereq_function(CURL *handle, mc_curl_prereq_callback f) {
  return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, f);
}

static inline CURLcode mc_curl_setopt_xferinfo_function(CURL *handle,
                                                        mc_curl_xferinfo_callback f) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, f);
}

static inline CURLcode mc_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode mc_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode mc_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode mc_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/// The next finished transfer of `multi`, if any: its easy handle and result.
/// Returns 1 when one was found (CURLMsg's union cannot be read from Swift).
static inline int mc_curl_multi_next_done(CURLM *multi, CURL **easy, CURLcode *result) {
  int queued = 0;
  CURLMsg *message;
  while ((message = curl_multi_info_read(multi, &queued)) != NULL) {
    if (message->msg == CURLMSG_DONE) {
      *easy = message->easy_handle;
      *result = message->data.result;
      return 1;
    }
  }
  return 0;
}

/// A share object whose only shared data is a connection cache: easy handles
/// given it (CURLOPT_SHARE) look up and keep connections there, not in the multi
/// handle's cache. NULL when curl refuses. Freed never (it lives as long as the
/// process, like the engine that owns it).
static inline CURLSH *mc_curl_share_connections(void) {
  CURLSH *share = curl_share_init();
  if (share == NULL) return NULL;
  if (curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT) != CURLSHE_OK) {
    curl_share_cleanup(share);
    return NULL;
  }
  return share;
}

// The multi handle's socket interface, driven by epoll (CurlEngine).
#include <sys/epoll.h>
#include <sys/eventfd.h>

typedef int (*mc_curl_socket_callback)(CURL *easy, curl_socket_t socket, int what, void *context,
                                       void *socket_context);
typedef int (*mc_curl_timer_callback)(CURLM *multi, long timeout_ms, void *context);

static inline CURLMcode mc_curl_multi_setopt_socket_function(CURLM *multi,
                                                             mc_curl_socket_callback f) {
  return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, f);
}

static inline CURLMcode mc_curl_multi_setopt_timer_function(CURLM *multi,
                                                            mc_curl_timer_callback f) {
  return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, f);
}

static inline CURLMcode mc_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option,
                                                     void *value) {
  return curl_multi_setopt(multi, option, value);
}

/// Watches `fd` for reading and/or writing (`add`: not watched yet); 0 or -1.
static inline int mc_epoll_watch(int epoll, int fd, int in, int out, int add) {
  struct epoll_event event = {0};
  event.events = (in ? EPOLLIN : 0) | (out ? EPOLLOUT : 0);
  event.data.fd = fd;
  return epoll_ctl(epoll, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

static inline int mc_epoll_forget(int epoll, int fd) {
  return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL);
}

/// Waits up to `timeout_ms` (-1: no limit) for at most `capacity` (≤ 256) ready
/// descriptors; fills `fds` and `masks` (CURL_CSELECT_IN/OUT/ERR). epoll_event is
/// a packed struct on x86-64, so Swift never sees it. Returns the count, or -1.
static inline int mc_epoll_wait(int epoll, int *fds, int *masks, int capacity, int timeout_ms) {
  struct epoll_event events[256];
  if (capacity > 256) capacity = 256;
  int count = epoll_wait(epoll, events, capacity, timeout_ms);
  for (int i = 0; i < count; i++) {
    int mask = 0;
    if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) mask |= CURL_CSELECT_IN;
    if (events[i].events & EPOLLOUT) mask |= CURL_CSELECT_OUT;
    if (events[i].events & EPOLLERR) mask |= CURL_CSELECT_ERR;
    fds[i] = events[i].data.fd;
    masks[i] = mask;
  }
  return count;
}

#endif
