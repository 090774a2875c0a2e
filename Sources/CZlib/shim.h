// zlib, for the compressed histograms of HdrHistogram's interval logs (.hlog).
#ifndef MIGRANT_CHAT_CZLIB_SHIM_H
#define MIGRANT_CHAT_CZLIB_SHIM_H

#include <zlib.h>

#endif
