// The raw baseline of `make bench`'s turn overhead: posts the same request
// bodies as the client, one after another on one reused libcurl connection,
// and parses nothing. What the client adds on top of this is its overhead.
//
// Usage: turn-baseline URL BODIES_FILE   (one JSON body per line)
// Prints: turns, seconds, turns per second.
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

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: turn-baseline URL BODIES_FILE\n");
    return 2;
  }
  FILE *file = fopen(argv[2], "r");
  if (!file) {
    perror(argv[2]);
    return 2;
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL *curl = curl_easy_init();
  struct curl_slist *headers = NULL;
  headers = curl_slist_append(headers, "Content-Type: application/json");
  headers = curl_slist_append(headers, "Accept: application/json");
  headers = curl_slist_append(headers, "Expect:");
  size_t received = 0;
  curl_easy_setopt(curl, CURLOPT_URL, argv[1]);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);

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
