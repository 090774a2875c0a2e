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
#include <curl/curl.h>
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

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "--once") == 0) return post_once(argv[2], argv[3]);
  if (argc != 3) {
    fprintf(stderr, "usage: turn-baseline URL BODIES_FILE\n       turn-baseline --once URL BODY\n");
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
