// The system libcurl (https://curl.se/libcurl/c/), for PoolSizeHTTP's blocking client.
// Its variadic curl_easy_setopt/getinfo are reached through CPoolSizeCurl's typed shims.
#ifndef POOLSIZE_CCURL_H
#define POOLSIZE_CCURL_H
#include <curl/curl.h>
#endif
