// Typed wrappers over libcurl's variadic calls, which Swift cannot make (curl_easy_setopt,
// curl_easy_getinfo, curl_multi_setopt, and the CURL_GLOBAL_ALL macro), and the callbacks that
// read an answer without keeping it: the body is counted and dropped (but for its first bytes),
// so a 100 MB answer costs no memory.
// No policy lives here; PoolSizeHTTP decides what to set and what an answer means.
#ifndef POOLSIZE_CURL_H
#define POOLSIZE_CURL_H

#include <curl/curl.h>

/// What one request's answer left behind, in fixed buffers owned by the handle's user.
typedef struct poolsize_curl_answer {
    /// Body bytes received (each chunk counted, then dropped).
    unsigned long long body_bytes;
    /// 1 once the blank line that ends the last answer's headers came; 0 while they are open,
    /// so an answer cut inside its headers is told from a whole one (libcurl 7.88 returns
    /// CURLE_OK and the status for "HTTP/1.1 200 OK\r\nContent-Le" and a close).
    int headers_ended;
    /// The status line's reason phrase ("Service Unavailable"); empty when it has none (HTTP/2).
    char reason[64];
    /// The value of the header named `capture`, when the answer had it; else empty.
    char captured[256];
    /// The header to capture, e.g. "X-Poolsize-Server" (set once by poolsize_curl_attach).
    char capture[64];
    /// libcurl's own message for a failed transfer (CURLOPT_ERRORBUFFER).
    char error[CURL_ERROR_SIZE];
    /// The body's first bytes (at most 159, NUL-terminated), for a failed answer's reason in
    /// the server's own words; the rest is counted and dropped.
    char body_start[160];
    /// How many bytes of `body_start` are filled.
    unsigned long body_kept;
    /// 1 when the last status line was no 2xx: only a failed answer's body is kept, so a
    /// successful one costs no copy.
    int keep_body;
} poolsize_curl_answer;

/// curl_global_init(CURL_GLOBAL_ALL): once per process, before any handle is made.
CURLcode poolsize_curl_global_init(void);

/// Points the handle's body and header callbacks and its error buffer at `answer`, and
/// remembers the header `capture` to keep (truncated to 63 bytes). Returns the first failure.
CURLcode poolsize_curl_attach(CURL *handle, poolsize_curl_answer *answer, const char *capture);

/// Empties `answer` before the next request (the counters and texts of the last one go).
void poolsize_curl_answer_reset(poolsize_curl_answer *answer);

/// curl_easy_setopt for an option taking a long.
CURLcode poolsize_curl_setopt_long(CURL *handle, CURLoption option, long value);
/// curl_easy_setopt for an option taking a pointer (a string, which libcurl copies, or a list
/// or buffer that must outlive the handle).
CURLcode poolsize_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// curl_easy_setopt for an option taking a curl_off_t.
CURLcode poolsize_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);

/// curl_easy_getinfo for a long (CURLINFO_RESPONSE_CODE, CURLINFO_OS_ERRNO).
CURLcode poolsize_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// curl_easy_getinfo for a string owned by the handle (CURLINFO_REDIRECT_URL); may be NULL.
CURLcode poolsize_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// curl_multi_setopt for an option taking a long (CURLMOPT_MAX_TOTAL_CONNECTIONS,
/// CURLMOPT_PIPELINING).
CURLMcode poolsize_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// The CURLcode of a finished transfer's message (CURLMSG_DONE): the member of the message's
/// union that libcurl sets for it.
CURLcode poolsize_curl_message_result(const CURLMsg *message);

#endif
