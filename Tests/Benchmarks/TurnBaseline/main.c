// The raw baseline of `make bench`'s turn overhead: posts the same request
// bodies as the client, one after another on one reused libcurl connection,
// and parses nothing. What the client adds on top of this is its overhead.
//
// Usage: turn-baseline URL BODIES_FILE   (one JSON body per line)
// Prints: turns, seconds, turns per second.
//
//        turn-baseline --once URL BODY
// One POST of BODY (a whole process: libcurl set up, connect, post, read the
// answer, exit), the raw counterpart of `migrant-chat --server URL` sending its
// start message. Prints the answer as received; exits 1 unless it is HTTP 200
// with a body.
//
//        turn-baseline --load JOBS SECONDS URL STEPS_FILE
// The raw counterpart of `replay --jobs JOBS --duration SECONDS`: JOBS
// conversations in flight on one multi handle driven by epoll and libcurl's
// socket API (as the client's engine is), each posting the steps of
// STEPS_FILE in turn, again and again, for SECONDS. A line of STEPS_FILE is a
// printf format with one %s, the sender; each job has its own. Connections
// are cached in 64 share objects, as the client's lanes are (libcurl 7.88
// walks every connection to a host before reusing one). Prints: turns,
// seconds, turns per second, failed turns.
#include <curl/curl.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t discard(char *data, size_t size, size_t count, void *context) {
  (void)data;
  *(size_t *)context += size * count;
  return size * count;
}

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static size_t print_answer(char *data, size_t size, size_t count, void *context) {
  *(size_t *)context += size * count;
  return fwrite(data, size, count, stdout) * size;
}

static CURL *post_handle(const char *url, struct curl_slist **headers) {
  CURL *curl = curl_easy_init();
  if (!curl) return NULL;
  *headers = curl_slist_append(*headers, "Content-Type: application/json");
  *headers = curl_slist_append(*headers, "Accept: application/json");
  *headers = curl_slist_append(*headers, "Expect:");
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, *headers);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  return curl;
}

static int post_once(const char *url, const char *body) {
  curl_global_init(CURL_GLOBAL_DEFAULT);
  struct curl_slist *headers = NULL;
  CURL *curl = post_handle(url, &headers);
  if (!curl) return 1;
  size_t received = 0;
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, print_answer);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
  CURLcode code = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  if (code != CURLE_OK) {
    fprintf(stderr, "%s: %s\n", url, curl_easy_strerror(code));
    return 1;
  }
  if (status != 200 || received == 0) {
    fprintf(stderr, "%s: HTTP %ld, %zu bytes\n", url, status, received);
    return 1;
  }
  return fflush(stdout) == 0 ? 0 : 1;
}

enum { LANES = 64, MAX_STEPS = 16 };

struct job {
  CURL *easy;
  char *bodies[MAX_STEPS];
  int step;
};

static int epoll_fd;
static long timer_ms = -1;

static int on_socket(CURL *easy, curl_socket_t socket, int what, void *context, void *socketp) {
  (void)easy, (void)context;
  struct epoll_event event = {.data.fd = socket};
  if (what == CURL_POLL_REMOVE) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, socket, NULL);
    return 0;
  }
  event.events = (what & CURL_POLL_IN ? EPOLLIN : 0) | (what & CURL_POLL_OUT ? EPOLLOUT : 0);
  if (epoll_ctl(epoll_fd, EPOLL_CTL_MOD, socket, &event) != 0)
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, socket, &event);
  (void)socketp;
  return 0;
}

static int on_timer(CURLM *multi, long timeout_ms, void *context) {
  (void)multi, (void)context;
  timer_ms = timeout_ms;
  return 0;
}

static void post_step(CURLM *multi, struct job *job, int steps) {
  char *body = job->bodies[job->step];
  job->step = (job->step + 1) % steps;
  curl_easy_setopt(job->easy, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
  curl_easy_setopt(job->easy, CURLOPT_POSTFIELDS, body);
  curl_multi_add_handle(multi, job->easy);
}

static int load(int jobs, double seconds, const char *url, const char *steps_path) {
  FILE *file = fopen(steps_path, "r");
  if (!file) {
    perror(steps_path);
    return 2;
  }
  char *formats[MAX_STEPS];
  int steps = 0;
  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  while (steps < MAX_STEPS && (length = getline(&line, &capacity, file)) > 0) {
    if (line[length - 1] == '\n') line[--length] = 0;
    if (length > 0) formats[steps++] = strdup(line);
  }
  fclose(file);
  free(line);
  if (steps == 0 || jobs < 1) return 2;

  curl_global_init(CURL_GLOBAL_DEFAULT);
  epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  CURLM *multi = curl_multi_init();
  curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
  curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
  curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, (long)jobs);
  CURLSH *shares[LANES];
  for (int lane = 0; lane < LANES; lane++) {
    shares[lane] = curl_share_init();
    curl_share_setopt(shares[lane], CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
  }
  struct curl_slist *headers = NULL;
  size_t received = 0;
  struct job *all = calloc((size_t)jobs, sizeof *all);
  for (int index = 0; index < jobs; index++) {
    struct curl_slist *own = NULL;
    all[index].easy = post_handle(url, index == 0 ? &headers : &own);
    if (own) curl_slist_free_all(own);
    curl_easy_setopt(all[index].easy, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(all[index].easy, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(all[index].easy, CURLOPT_WRITEDATA, &received);
    curl_easy_setopt(all[index].easy, CURLOPT_SHARE, shares[index % LANES]);
    curl_easy_setopt(all[index].easy, CURLOPT_PRIVATE, &all[index]);
    char sender[32];
    snprintf(sender, sizeof sender, "baseline-%d", index);
    for (int step = 0; step < steps; step++) {
      size_t size = strlen(formats[step]) + sizeof sender;
      all[index].bodies[step] = malloc(size);
      snprintf(all[index].bodies[step], size, formats[step], sender);
    }
  }

  long turns = 0, failed = 0;
  int running = 0;
  double started = now(), end = started + seconds;
  for (int index = 0; index < jobs; index++) post_step(multi, &all[index], steps);
  struct epoll_event events[256];
  while (now() < end) {
    int ready = epoll_wait(epoll_fd, events, 256, timer_ms < 0 ? 100 : (int)timer_ms);
    if (ready <= 0) {
      timer_ms = -1;
      curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    for (int index = 0; index < ready; index++) {
      int mask = (events[index].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                 (events[index].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                 (events[index].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
      curl_multi_socket_action(multi, events[index].data.fd, mask, &running);
    }
    CURLMsg *message;
    int left;
    while ((message = curl_multi_info_read(multi, &left))) {
      if (message->msg != CURLMSG_DONE) continue;
      struct job *job;
      curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, (char **)&job);
      long status = 0;
      curl_easy_getinfo(job->easy, CURLINFO_RESPONSE_CODE, &status);
      if (message->data.result == CURLE_OK && status == 200) turns++;
      else failed++;
      curl_multi_remove_handle(multi, job->easy);
      post_step(multi, job, steps);
    }
  }
  double elapsed = now() - started;
  printf("%ld %.6f %.1f %ld\n", turns, elapsed, (double)turns / elapsed, failed);
  return received > 0 && turns > 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--once") == 0) return post_once(argv[2], argv[3]);
  if (argc == 6 && strcmp(argv[1], "--load") == 0)
    return load(atoi(argv[2]), atof(argv[3]), argv[4], argv[5]);
  if (argc != 3) {
    fprintf(stderr, "usage: turn-baseline URL BODIES_FILE\n       turn-baseline --once URL BODY\n"
                    "       turn-baseline --load JOBS SECONDS URL STEPS_FILE\n");
    return 2;
  }
  FILE *file = fopen(argv[2], "r");
  if (!file) {
    perror(argv[2]);
    return 2;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  struct curl_slist *headers = NULL;
  CURL *curl = post_handle(argv[1], &headers);
  if (!curl) return 1;
  size_t received = 0;
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);

  char *line = NULL;
  size_t capacity = 0;
  ssize_t length;
  long turns = 0;
  double started = now();
  while ((length = getline(&line, &capacity, file)) > 0) {
    if (line[length - 1] == '\n') line[--length] = 0;
    if (length == 0) continue;
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)length);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, line);
    CURLcode code = curl_easy_perform(curl);
    if (code != CURLE_OK) {
      fprintf(stderr, "turn %ld: %s\n", turns + 1, curl_easy_strerror(code));
      return 1;
    }
    turns++;
  }
  double seconds = now() - started;
  printf("%ld %.6f %.1f\n", turns, seconds, (double)turns / seconds);
  free(line);
  fclose(file);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  curl_global_cleanup();
  return received > 0 ? 0 : 1;
}
