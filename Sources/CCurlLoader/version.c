// libcurl's version, without loading libcurl when the answer can be had exactly.
//
// `--version` names the libcurl this program runs with. Asking libcurl
// (curl_version_info) means loading it, and as Debian builds it that maps and
// relocates 30 libraries: 4 times the whole start of a hello world, for a command
// that never connects. The dynamic loader finds "libcurl.so.4" in a fixed way:
// the executable's DT_RPATH, LD_LIBRARY_PATH, its DT_RUNPATH, then /etc/ld.so.cache.
// When no search path is in play (none of those, no LD_AUDIT, not started through
// ld.so with options of its own) and the cache names one file for it, that is the
// file the first connection will load, and its version is the text libcurl itself
// prints, "libcurl/7.88.1", held once in its read-only data. In every other case
// (libcurl already loaded, a search path, a glibc-hwcaps variant, no entry, a file
// without exactly one such text) libcurl is loaded and asked, as before.
//
// What the file says is not proof that it loads (a dependency may be missing): a
// chat with a server says so when it does not.

#define _GNU_SOURCE 1  // memmem
#include <curl/curl.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "CCurlLoader.h"

// ld.so.cache's entry flags for a library of this machine's kind (glibc's
// FLAG_ELF_LIBC6 with its FLAG_*_LIB64); anywhere else the cache is not read.
#if defined(__x86_64__)
#define CACHE_FLAGS 0x0303
#elif defined(__aarch64__)
#define CACHE_FLAGS 0x0a03
#else
#define CACHE_FLAGS -1
#endif

// The layout glibc writes since 2.2 ("new format", the only one since 2.32):
// a 48-byte header, then entries of 24 bytes whose string offsets count from the
// start of the file.
static const char cacheMagic[] = "glibc-ld.so.cache1.1";
enum { cacheHeaderSize = 48, cacheEntrySize = 24 };

/// A read-only view of a whole file; `bytes` is NULL when it could not be mapped.
typedef struct {
  const unsigned char *bytes;
  size_t size;
} Mapping;

static Mapping mapFile(const char *path) {
  Mapping mapping = {NULL, 0};
  // Non-blocking: a FIFO at the path must not hang --version.
  int descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (descriptor < 0) return mapping;
  struct stat status;
  if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0) {
    void *bytes = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, descriptor, 0);
    if (bytes != MAP_FAILED) {
      mapping.bytes = bytes;
      mapping.size = (size_t)status.st_size;
    }
  }
  close(descriptor);
  return mapping;
}

static void unmapFile(Mapping mapping) {
  if (mapping.bytes) munmap((void *)mapping.bytes, mapping.size);
}

static uint32_t readU32(const unsigned char *bytes) {
  uint32_t value;
  memcpy(&value, bytes, sizeof value);
  return value;
}

/// The NUL-terminated string at `offset`, or NULL when it runs past the file.
static const char *stringAt(Mapping cache, uint32_t offset) {
  if (offset >= cache.size) return NULL;
  const void *end = memchr(cache.bytes + offset, 0, cache.size - offset);
  return end ? (const char *)cache.bytes + offset : NULL;
}

int mc_curl_cache_lookup(const char *cachePath, const char *name, char *path, size_t pathSize) {
  if (CACHE_FLAGS < 0 || pathSize == 0) return 0;
  Mapping cache = mapFile(cachePath);
  if (!cache.bytes) return 0;
  int found = 0, usable = 1;
  size_t magicLength = sizeof cacheMagic - 1;
  if (cache.size < cacheHeaderSize || memcmp(cache.bytes, cacheMagic, magicLength) != 0) {
    usable = 0;
  } else {
    uint32_t count = readU32(cache.bytes + magicLength);
    if ((uint64_t)count * cacheEntrySize > cache.size - cacheHeaderSize) usable = 0;
    for (uint32_t index = 0; usable && index < count; index++) {
      const unsigned char *entry = cache.bytes + cacheHeaderSize + (size_t)index * cacheEntrySize;
      int32_t flags = (int32_t)readU32(entry);
      const char *key = stringAt(cache, readU32(entry + 4));
      if (!key || strcmp(key, name) != 0 || flags != CACHE_FLAGS) continue;
      const char *value = stringAt(cache, readU32(entry + 8));
      uint64_t hwcap;
      memcpy(&hwcap, entry + 16, sizeof hwcap);
      // A glibc-hwcaps variant is chosen by the processor: leave that to the loader.
      // So is a second file for the same name, and a path that does not fit.
      if (hwcap != 0 || !value || strlen(value) >= pathSize ||
          (found && strcmp(path, value) != 0)) {
        usable = 0;
      } else {
        strcpy(path, value);
        found = 1;
      }
    }
  }
  unmapFile(cache);
  return usable && found;
}

static int isVersionCharacter(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         c == '.' || c == '-' || c == '+' || c == '_';
}

int mc_curl_version_in_file(const char *libraryPath, char *version, size_t versionSize) {
  static const char marker[] = "libcurl/";
  const size_t markerLength = sizeof marker - 1;
  if (versionSize == 0) return 0;
  Mapping library = mapFile(libraryPath);
  if (!library.bytes) return 0;
  int found = 0, usable = 1;
  const unsigned char *cursor = library.bytes, *end = library.bytes + library.size;
  while (usable && cursor < end) {
    const unsigned char *hit = memmem(cursor, (size_t)(end - cursor), marker, markerLength);
    if (!hit) break;
    const unsigned char *start = hit + markerLength, *stop = start;
    while (stop < end && isVersionCharacter(*stop)) stop++;
    cursor = hit + 1;
    // Only a whole string of its own that starts with a digit: "\0libcurl/7.88.1\0".
    if ((hit > library.bytes && hit[-1] != 0) || stop == start || stop == end || *stop != 0 ||
        *start < '0' || *start > '9') {
      continue;
    }
    size_t length = (size_t)(stop - start);
    if (length >= versionSize || (found && (strlen(version) != length ||
                                            memcmp(version, start, length) != 0))) {
      usable = 0;
    } else {
      memcpy(version, start, length);
      version[length] = 0;
      found = 1;
    }
  }
  unmapFile(library);
  return usable && found;
}

/// Finds the main program's dynamic section, as the loader mapped it: the first
/// object dl_iterate_phdr reports. (`_DYNAMIC` is where the linker put it, and
/// patchelf may have moved it since, with a RUNPATH in the new copy.)
static int findProgramDynamic(struct dl_phdr_info *info, size_t size, void *result) {
  (void)size;
  for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
    if (info->dlpi_phdr[index].p_type == PT_DYNAMIC) {
      *(const ElfW(Dyn) **)result = (const ElfW(Dyn) *)(info->dlpi_addr +
                                                         info->dlpi_phdr[index].p_vaddr);
    }
  }
  return 1;  // the first object only
}

/// Whether anything but the cache decides where libcurl comes from: the
/// executable's own library directories, LD_LIBRARY_PATH, an audit library, or
/// ld.so run as a command (`ld.so --library-path DIR program`, where AT_BASE is 0).
static int searchPathInPlay(void) {
  const char *libraryPath = getenv("LD_LIBRARY_PATH"), *audit = getenv("LD_AUDIT");
  if ((libraryPath && *libraryPath) || (audit && *audit) || getauxval(AT_BASE) == 0) return 1;
  const ElfW(Dyn) *dynamic = NULL;
  dl_iterate_phdr(findProgramDynamic, &dynamic);
  if (!dynamic) return 1;
  for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++) {
    if (entry->d_tag == DT_RPATH || entry->d_tag == DT_RUNPATH) return 1;
  }
  return 0;
}

static char versionText[64];
static const char *runtimeVersion;
static pthread_once_t versionOnce = PTHREAD_ONCE_INIT;

/// The version libcurl reports of itself, loading it if need be; NULL when it
/// cannot be loaded.
static const char *askLibcurl(void *library) {
  typedef curl_version_info_data *(*VersionInfo)(CURLversion);
  VersionInfo versionInfo =
      library ? (VersionInfo)dlsym(library, "curl_version_info") : curl_version_info;
  curl_version_info_data *info = versionInfo ? versionInfo(CURLVERSION_NOW) : NULL;
  if (!info || !info->version) return NULL;
  strncpy(versionText, info->version, sizeof versionText - 1);
  return versionText;
}

static void findRuntimeVersion(void) {
  // Loaded already (a connection was made, or LD_PRELOAD): it answers itself.
  void *loaded = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_NOLOAD);
  if (loaded) {
    runtimeVersion = askLibcurl(loaded);
    dlclose(loaded);
    return;
  }
  char path[4096];
  if (!searchPathInPlay() &&
      mc_curl_cache_lookup("/etc/ld.so.cache", "libcurl.so.4", path, sizeof path) &&
      mc_curl_version_in_file(path, versionText, sizeof versionText)) {
    runtimeVersion = versionText;
    return;
  }
  runtimeVersion = askLibcurl(NULL);
}

const char *mc_curl_runtime_version(void) {
  pthread_once(&versionOnce, findRuntimeVersion);
  return runtimeVersion;
}
