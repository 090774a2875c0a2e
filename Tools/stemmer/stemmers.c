// libstemmer's API (libstemmer.h) for the two Snowball stemmers migrant-chat's search
// uses, English and Russian, in place of libstemmer.o in the release build's static
// libstemmer.a (`make static-libs`). libstemmer.o's table names every language Snowball
// has, so linking it linked all 29, and their tables of pointers were relocated at every
// start: 10,800 relocations over 80 pages, a tenth of the page faults of the first
// offline answer (#50). This table names two, and the linker leaves the other 27 out.
//
// A build that links the shared libstemmer (a plain `swift build`) uses libstemmer's
// own table; SnowballStemmer.swift is the same for both.
#include <stdlib.h>
#include <string.h>

#include <libstemmer.h>

// Snowball's runtime (runtime/header.h and api.h, the same since 2001): a stemmer's
// environment begins with its current word and its length, the two fields read here.
struct SN_env {
  sb_symbol *p;
  int c;
  int l;
};

extern int SN_set_current(struct SN_env *z, int size, const sb_symbol *s);

extern struct SN_env *english_UTF_8_create_env(void);
extern void english_UTF_8_close_env(struct SN_env *z);
extern int english_UTF_8_stem(struct SN_env *z);
extern struct SN_env *russian_UTF_8_create_env(void);
extern void russian_UTF_8_close_env(struct SN_env *z);
extern int russian_UTF_8_stem(struct SN_env *z);

struct algorithm {
  const char *name;
  const char *alias;
  struct SN_env *(*create)(void);
  void (*close)(struct SN_env *);
  int (*stem)(struct SN_env *);
};

static const struct algorithm algorithms[] = {
  {"english", "en", english_UTF_8_create_env, english_UTF_8_close_env, english_UTF_8_stem},
  {"russian", "ru", russian_UTF_8_create_env, russian_UTF_8_close_env, russian_UTF_8_stem},
};
enum { algorithm_count = sizeof(algorithms) / sizeof(algorithms[0]) };

struct sb_stemmer {
  const struct algorithm *algorithm;
  struct SN_env *env;
};

const char **sb_stemmer_list(void) {
  static const char *names[] = {"english", "russian", NULL};
  return names;
}

struct sb_stemmer *sb_stemmer_new(const char *name, const char *encoding) {
  if (encoding != NULL && strcmp(encoding, "UTF_8") != 0) return NULL;
  for (int i = 0; i < algorithm_count; i++) {
    const struct algorithm *algorithm = &algorithms[i];
    if (strcmp(name, algorithm->name) != 0 && strcmp(name, algorithm->alias) != 0) continue;
    struct sb_stemmer *stemmer = malloc(sizeof *stemmer);
    if (stemmer == NULL) return NULL;
    stemmer->algorithm = algorithm;
    stemmer->env = algorithm->create();
    if (stemmer->env == NULL) {
      free(stemmer);
      return NULL;
    }
    return stemmer;
  }
  return NULL;
}

void sb_stemmer_delete(struct sb_stemmer *stemmer) {
  if (stemmer == NULL) return;
  stemmer->algorithm->close(stemmer->env);
  free(stemmer);
}

const sb_symbol *sb_stemmer_stem(struct sb_stemmer *stemmer, const sb_symbol *word, int size) {
  if (SN_set_current(stemmer->env, size, word) != 0) {
    stemmer->env->l = 0;
    return NULL;
  }
  if (stemmer->algorithm->stem(stemmer->env) < 0) return NULL;
  stemmer->env->p[stemmer->env->l] = 0;
  return stemmer->env->p;
}

int sb_stemmer_length(struct sb_stemmer *stemmer) { return stemmer->env->l; }
