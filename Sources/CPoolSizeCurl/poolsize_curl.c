#include "poolsize_curl.h"
#include <string.h>
#include <strings.h>

CURLcode poolsize_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_ALL); }

/// Copies [start, end) into `out` (capacity `size`), without leading blanks and trailing
/// blanks or CR/LF, truncated to fit.
static void copy_trimmed(char *out, size_t size, const char *start, const char *end) {
    while (start < end && (*start == ' ' || *start == '\t')) start++;
    while (end > start && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t')) end--;
    size_t length = (size_t)(end - start);
    if (length > size - 1) length = size - 1;
    memcpy(out, start, length);
    out[length] = 0;
}

/// CURLOPT_WRITEFUNCTION: counts the chunk and drops it, keeping a failed answer's first bytes.
static size_t on_body(char *data, size_t size, size_t count, void *user) {
    poolsize_curl_answer *answer = user;
    size_t length = size * count;
    answer->body_bytes += (unsigned long long)length;
    size_t room = sizeof answer->body_start - 1 - answer->body_kept;
    if (answer->keep_body && room > 0 && length > 0) {
        size_t kept = length < room ? length : room;
        memcpy(answer->body_start + answer->body_kept, data, kept);
        answer->body_kept += kept;
        answer->body_start[answer->body_kept] = 0;
    }
    return length;
}

/// CURLOPT_HEADERFUNCTION: one header line at a time, not NUL-terminated. A status line
/// starts a new answer (an interim 100 Continue comes before the final one); the empty line
/// libcurl passes after the last header (HTTP/2's too) ends it.
static size_t on_header(char *line, size_t size, size_t count, void *user) {
    poolsize_curl_answer *answer = user;
    size_t length = size * count;
    const char *end = line + length;
    if ((length == 2 && line[0] == '\r' && line[1] == '\n') || (length == 1 && line[0] == '\n')) {
        answer->headers_ended = 1;
        return length;
    }
    if (length >= 5 && memcmp(line, "HTTP/", 5) == 0) {
        answer->headers_ended = 0;
        answer->reason[0] = 0;
        answer->captured[0] = 0;
        answer->body_kept = 0;
        answer->body_start[0] = 0;
        // "HTTP/1.1 503 …": the status follows the first space; only a failed answer's body is kept.
        const char *code = memchr(line, ' ', length);
        answer->keep_body = !(code && end - code > 1 && code[1] == '2');
        // "HTTP/1.1 503 Service Unavailable\r\n": the reason follows the second space.
        const char *space = memchr(line, ' ', length);
        if (space) space = memchr(space + 1, ' ', (size_t)(end - space - 1));
        if (space) copy_trimmed(answer->reason, sizeof answer->reason, space + 1, end);
        return length;
    }
    size_t name = strlen(answer->capture);
    if (name > 0 && length > name && line[name] == ':' && strncasecmp(line, answer->capture, name) == 0) {
        copy_trimmed(answer->captured, sizeof answer->captured, line + name + 1, end);
    }
    return length;
}

CURLcode poolsize_curl_attach(CURL *handle, poolsize_curl_answer *answer, const char *capture) {
    memset(answer, 0, sizeof *answer);
    if (capture) {
        strncpy(answer->capture, capture, sizeof answer->capture - 1);
    }
    CURLcode code;
    if ((code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_WRITEDATA, answer)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header)) != CURLE_OK) return code;
    if ((code = curl_easy_setopt(handle, CURLOPT_HEADERDATA, answer)) != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, answer->error);
}

void poolsize_curl_answer_reset(poolsize_curl_answer *answer) {
    answer->body_bytes = 0;
    answer->headers_ended = 0;
    answer->reason[0] = 0;
    answer->captured[0] = 0;
    answer->error[0] = 0;
    answer->body_kept = 0;
    answer->body_start[0] = 0;
    answer->keep_body = 0;
}

CURLcode poolsize_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode poolsize_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode poolsize_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode poolsize_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode poolsize_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode poolsize_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLcode poolsize_curl_message_result(const CURLMsg *message) { return message->data.result; }
