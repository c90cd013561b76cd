// Measures how long a live-stream event takes to reach many open streams: opens STREAMS
// `GET /events` streams, then posts WRITES announcements one at a time (a child process, one
// connection each, 100 ms apart) and notes, for every stream, when each one's
// `announcement.created` event arrives. Prints the delay from each POST being sent, p50/p99/max
// over all of them, and how many streams got every event exactly once and in order.
// Usage: sse-latency PORT STREAMS WRITES TOKEN [POST-PORT]
//   POST-PORT: post through another instance (on the same PostgreSQL database) than the one
//   whose streams are read.
//   SSE_VERBOSE=1 also prints each write's slowest arrival.
// The writes' ids come back through a pipe read at the end: a few thousand writes at most.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        perror("connect");
        exit(2);
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

static void send_all(int fd, const char *text, size_t length) {
    while (length > 0) {
        ssize_t sent = write(fd, text, length);
        if (sent <= 0) { perror("write"); exit(2); }
        text += sent;
        length -= (size_t)sent;
    }
}

/// Posts `writes` announcements; writes "id sent-ms" lines to `out`.
static void poster(int port, int writes, const char *token, int out) {
    for (int n = 0; n < writes; n++) {
        char body[64], request[1024], answer[8192];
        int body_length = snprintf(body, sizeof body, "{\"title\":\"Latency %d\"}", n);
        int length = snprintf(request, sizeof request,
            "POST /announcements HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\n"
            "Content-Length: %d\r\nConnection: close\r\n\r\n%s", token, body_length, body);
        int fd = connect_to(port);
        double sent = now_ms();
        send_all(fd, request, (size_t)length);
        size_t got = 0;
        ssize_t r;
        while (got < sizeof answer - 1 && (r = read(fd, answer + got, sizeof answer - 1 - got)) > 0) got += (size_t)r;
        answer[got] = 0;
        close(fd);
        char *id = strstr(answer, "\"id\":");
        if (!id) { fprintf(stderr, "no id in the answer: %.200s\n", answer); exit(2); }
        dprintf(out, "%ld %.3f\n", strtol(id + 5, NULL, 10), sent);
        usleep(100000);
    }
    close(out);
}

typedef struct {
    int fd;
    int open;      // still connected
    int answered;  // its head was read and said 200
    char buffer[16384];
    size_t length;
    long *ids;
    double *at;
    int count;
} Stream;

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) { fprintf(stderr, "usage: sse-latency PORT STREAMS WRITES TOKEN [POST-PORT]\n"); return 2; }
    int port = atoi(argv[1]), count = atoi(argv[2]), writes = atoi(argv[3]);
    int post_port = argc == 6 ? atoi(argv[5]) : port;
    const char *token = argv[4];
    int epoll = epoll_create1(0);
    Stream *streams = calloc((size_t)count, sizeof *streams);
    const char *open = "GET /events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n";
    for (int i = 0; i < count; i++) {
        streams[i].fd = connect_to(port);
        streams[i].open = 1;
        streams[i].ids = calloc((size_t)writes * 2 + 4, sizeof(long));
        streams[i].at = calloc((size_t)writes * 2 + 4, sizeof(double));
        send_all(streams[i].fd, open, strlen(open));
        fcntl(streams[i].fd, F_SETFL, O_NONBLOCK);
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
        epoll_ctl(epoll, EPOLL_CTL_ADD, streams[i].fd, &event);
    }
    usleep(500000);
    int pipes[2];
    if (pipe(pipes) != 0) return 2;
    pid_t child = fork();
    if (child == 0) {
        close(pipes[0]);
        poster(post_port, writes, token, pipes[1]);
        _exit(0);
    }
    close(pipes[1]);
    double deadline = 0;
    struct epoll_event events[256];
    int done = 0;
    while (!deadline || now_ms() < deadline) {
        int ready = epoll_wait(epoll, events, 256, 50);
        for (int e = 0; e < ready; e++) {
            Stream *s = &streams[events[e].data.u32];
            for (;;) {
                if (s->length >= sizeof s->buffer - 1) {
                    fprintf(stderr, "a message over %zu bytes: not a stream of small events\n", sizeof s->buffer);
                    return 2;
                }
                ssize_t got = read(s->fd, s->buffer + s->length, sizeof s->buffer - 1 - s->length);
                if (got < 0 && errno == EAGAIN) break;
                if (got <= 0) {
                    // Ended by the server (or an error): no longer watched; counted below.
                    epoll_ctl(epoll, EPOLL_CTL_DEL, s->fd, NULL);
                    close(s->fd);
                    s->open = 0;
                    break;
                }
                double at = now_ms();
                s->length += (size_t)got;
                s->buffer[s->length] = 0;
                if (!s->answered) {
                    if (s->length < 12) continue;
                    if (strncmp(s->buffer, "HTTP/1.1 200", 12) != 0) {
                        fprintf(stderr, "a stream was refused: %.80s\n", s->buffer);
                        return 2;
                    }
                    s->answered = 1;
                }
                char *cursor = s->buffer, *end;
                while ((end = strstr(cursor, "\n\n"))) {
                    char *kind = strstr(cursor, "event: announcement.created");
                    if (kind && kind < end && s->count < writes * 2 + 4) {
                        char *data = strstr(kind, "\"id\":");
                        if (data && data < end) {
                            s->ids[s->count] = strtol(data + 5, NULL, 10);
                            s->at[s->count++] = at;
                        }
                    }
                    cursor = end + 2;
                }
                s->length -= (size_t)(cursor - s->buffer);
                memmove(s->buffer, cursor, s->length);
            }
        }
        if (!done && waitpid(child, NULL, WNOHANG) == child) {
            done = 1;
            deadline = now_ms() + 3000;
        }
    }
    FILE *sent = fdopen(pipes[0], "r");
    long *sent_ids = calloc((size_t)writes, sizeof(long));
    double *sent_at = calloc((size_t)writes, sizeof(double));
    int posted = 0;
    while (posted < writes && fscanf(sent, "%ld %lf", &sent_ids[posted], &sent_at[posted]) == 2) posted++;
    double *delays = calloc((size_t)count * ((size_t)writes * 2 + 4), sizeof(double));
    size_t delivered = 0;
    int exact = 0, ended = 0;
    for (int i = 0; i < count; i++) {
        Stream *s = &streams[i];
        int in_order = s->count == posted;
        for (int k = 0; k < s->count; k++) {
            int w = -1;
            for (int j = 0; j < posted; j++) if (sent_ids[j] == s->ids[k]) { w = j; break; }
            if (w < 0) continue;
            if (w != k) in_order = 0;
            delays[delivered++] = s->at[k] - sent_at[w];
        }
        exact += in_order;
        ended += !s->open;
    }
    if (getenv("SSE_VERBOSE")) {
        for (int j = 0; j < posted; j++) {
            double worst = 0;
            for (int i = 0; i < count; i++)
                for (int k = 0; k < streams[i].count; k++)
                    if (streams[i].ids[k] == sent_ids[j] && streams[i].at[k] - sent_at[j] > worst) worst = streams[i].at[k] - sent_at[j];
            printf("write %d (id %ld): slowest %.1f ms\n", j, sent_ids[j], worst);
        }
    }
    qsort(delays, delivered, sizeof *delays, compare);
    if (delivered == 0) { printf("no event arrived\n"); return 1; }
    // Nearest rank: the smallest delay at or above which lie the given share of them all.
    size_t p50 = (delivered + 1) / 2 - 1, p99 = (size_t)((double)delivered * 0.99 + 0.999999) - 1;
    printf("delivery to %d streams, %d writes: %zu events, %d streams got every one once and in order, %d ended by the server; "
           "POST sent to event: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
        count, posted, delivered, exact, ended, delays[p50], delays[p99], delays[delivered - 1]);
    return 0;
}
