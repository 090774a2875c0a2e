// Snowball's libstemmer (Debian libstemmer-dev): English and Russian stemmers
// for search. The library has no pkg-config file; the header is in /usr/include.
#include <libstemmer.h>
