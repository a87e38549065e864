/*
 * Native libzmq baseline for the Net.Zmq benchmarks: the same patterns the C# suites run, driven from C.
 *
 *   zmq_native_bench throughput <size> <messages> <warmups> <iterations>
 *       ROUTER-to-ROUTER over tcp://127.0.0.1, HWM 0; a sender thread sends <messages> two-frame messages
 *       (routing id + payload) while the main thread receives them. Prints one line:
 *       throughput <size> <messages> <ns of iteration 1> <ns of iteration 2> ...
 *
 *   zmq_native_bench roundtrip <req-rep|dealer-router> <size> <warmups> <samples>
 *       An echo server thread (REP, or ROUTER) and a client (REQ, or DEALER); times every round trip. Prints:
 *       roundtrip <pattern> <size> <ns of round trip 1> <ns of round trip 2> ...
 *
 *   zmq_native_bench serve
 *       Opens the ROUTER pair and sender thread of "throughput" once, prints "ready", then reads commands from stdin:
 *       "throughput <size> <messages>" runs one timed run and prints its ns on a line of its own; "sides <size>
 *       <messages>" times each side alone in the calling thread's CPU time (it queues the messages while nobody reads,
 *       waits 30 ms for the I/O thread to move them, then drains them) and prints "<send ns> <receive ns>"; "quit" (or
 *       end of input) closes everything. The .NET suite alternates these runs with its own (the interleaved phase);
 *       the JVM's Sides diagnostic does the same with "sides".
 *
 * Every line of output is whitespace-separated so the .NET report can merge it as "Native (C)" rows.
 *
 * Built with -DZMQ_NATIVE_BENCH_LIBRARY -shared (libzmq_native_bench.so) it has no main and exports the pair of
 * "throughput" instead: zmq_native_bench_open, zmq_native_bench_run (one timed run, its ns) and zmq_native_bench_close.
 * The JVM suite runs C's own loop inside its process through them, to tell what the process costs from what the
 * binding costs.
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zmq.h>

static void fail(const char *what)
{
    fprintf(stderr, "%s: %s\n", what, zmq_strerror(zmq_errno()));
    exit(1);
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void *make_socket(void *ctx, int type)
{
    void *s = zmq_socket(ctx, type);
    int zero = 0;
    if (!s) fail("zmq_socket");
    zmq_setsockopt(s, ZMQ_SNDHWM, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_RCVHWM, &zero, sizeof zero);
    zmq_setsockopt(s, ZMQ_LINGER, &zero, sizeof zero);
    return s;
}

static void bind_any(void *s, char *endpoint, size_t capacity)
{
    if (zmq_bind(s, "tcp://127.0.0.1:*") != 0) fail("zmq_bind");
    if (zmq_getsockopt(s, ZMQ_LAST_ENDPOINT, endpoint, &capacity) != 0) fail("ZMQ_LAST_ENDPOINT");
}

static void recv_all(void *s, char *buffer, size_t size)
{
    if (zmq_recv(s, buffer, size, 0) < 0) fail("zmq_recv");
}

/* ---- throughput: ROUTER to ROUTER ---- */

/* A connected ROUTER pair and its sender thread, kept for any number of timed runs. */
struct pair {
    void *ctx, *receiver, *sender;
    char *payload, *buffer;
    int capacity;
    int size, messages; /* of the next run; messages < 0 stops the sender thread */
    sem_t start;
    pthread_t thread;
};

static void *sender_main(void *arg)
{
    struct pair *p = arg;
    while (1) {
        sem_wait(&p->start);
        if (p->messages < 0) return NULL;
        for (int i = 0; i < p->messages; i++) {
            if (zmq_send(p->sender, "R", 1, ZMQ_SNDMORE) < 0) fail("zmq_send id");
            if (zmq_send(p->sender, p->payload, p->size, 0) < 0) fail("zmq_send payload");
        }
    }
}

static void pair_open(struct pair *p)
{
    char endpoint[256], id[16], hello[16];
    int one = 1;
    memset(p, 0, sizeof *p);
    p->ctx = zmq_ctx_new();
    p->receiver = make_socket(p->ctx, ZMQ_ROUTER);
    p->sender = make_socket(p->ctx, ZMQ_ROUTER);
    zmq_setsockopt(p->receiver, ZMQ_ROUTING_ID, "R", 1);
    zmq_setsockopt(p->sender, ZMQ_ROUTING_ID, "S", 1);
    zmq_setsockopt(p->sender, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    bind_any(p->receiver, endpoint, sizeof endpoint);
    if (zmq_connect(p->sender, endpoint) != 0) fail("zmq_connect");

    /* The handshake is done when the sender's ROUTER can route to "R". */
    while (zmq_send(p->sender, "R", 1, ZMQ_SNDMORE) < 0) {
        if (zmq_errno() != EHOSTUNREACH) fail("handshake");
        usleep(100);
    }
    zmq_send(p->sender, "hi", 2, 0);
    recv_all(p->receiver, id, sizeof id);
    recv_all(p->receiver, hello, sizeof hello);

    sem_init(&p->start, 0, 0);
    pthread_create(&p->thread, NULL, sender_main, p);
}

/* Makes the payload and receive buffers hold <size> bytes; the sender thread is idle between runs, so they can move. */
static void pair_reserve(struct pair *p, int size)
{
    if (size > p->capacity) {
        p->payload = realloc(p->payload, size);
        p->buffer = realloc(p->buffer, size);
        if (!p->payload || !p->buffer) { fprintf(stderr, "out of memory\n"); exit(1); }
        memset(p->payload, 'x', size);
        p->capacity = size;
    }
}

/* One timed run: <messages> two-frame messages of <size> bytes, from the sender's start to the last receive. */
static int64_t pair_run(struct pair *p, int size, int messages)
{
    char id[16];
    pair_reserve(p, size);
    p->size = size;
    p->messages = messages;
    int64_t started = now_ns();
    sem_post(&p->start);
    for (int i = 0; i < messages; i++) {
        recv_all(p->receiver, id, sizeof id);
        recv_all(p->receiver, p->buffer, size);
    }
    return now_ns() - started;
}

static int64_t thread_cpu_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Each side of a run alone, in this thread's CPU time: the sender socket is used from here while the sender thread is
 * idle (sem_wait and sem_post order the hand-over). The 30 ms let libzmq's I/O thread move the messages into the
 * receiver's queue; a receive that still has to wait spends that wait off the CPU. */
static void pair_sides(struct pair *p, int size, int messages, int64_t *send_ns, int64_t *receive_ns)
{
    char id[16];
    pair_reserve(p, size);
    int64_t t0 = thread_cpu_ns();
    for (int i = 0; i < messages; i++) {
        if (zmq_send(p->sender, "R", 1, ZMQ_SNDMORE) < 0) fail("zmq_send id");
        if (zmq_send(p->sender, p->payload, size, 0) < 0) fail("zmq_send payload");
    }
    *send_ns = thread_cpu_ns() - t0;
    usleep(30000);
    int64_t t1 = thread_cpu_ns();
    for (int i = 0; i < messages; i++) {
        recv_all(p->receiver, id, sizeof id);
        recv_all(p->receiver, p->buffer, size);
    }
    *receive_ns = thread_cpu_ns() - t1;
}

static void pair_close(struct pair *p)
{
    p->messages = -1;
    sem_post(&p->start);
    pthread_join(p->thread, NULL);
    zmq_close(p->sender);
    zmq_close(p->receiver);
    zmq_ctx_term(p->ctx);
    sem_destroy(&p->start);
    free(p->payload);
    free(p->buffer);
}

static int throughput(int size, int messages, int warmups, int iterations)
{
    struct pair p;
    pair_open(&p);
    printf("throughput %d %d", size, messages);
    for (int round = 0; round < warmups + iterations; round++) {
        int64_t elapsed = pair_run(&p, size, messages);
        if (round >= warmups) printf(" %lld", (long long)elapsed);
    }
    printf("\n");
    pair_close(&p);
    return 0;
}

/* Stays up and runs one timed throughput run per command read from stdin, so that a caller can alternate its own
 * runs with these ones against a process that is already warm. */
static int serve(void)
{
    struct pair p;
    char line[256];
    int size, messages;
    pair_open(&p);
    printf("ready\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "quit", 4) == 0) break;
        if (sscanf(line, "throughput %d %d", &size, &messages) == 2 && size >= 0 && messages >= 1) {
            printf("%lld\n", (long long)pair_run(&p, size, messages));
        } else if (sscanf(line, "sides %d %d", &size, &messages) == 2 && size >= 0 && messages >= 1) {
            int64_t send_ns, receive_ns;
            pair_sides(&p, size, messages, &send_ns, &receive_ns);
            printf("%lld %lld\n", (long long)send_ns, (long long)receive_ns);
        } else {
            fprintf(stderr, "unknown command: %s", line);
            pair_close(&p);
            return 2;
        }
        fflush(stdout);
    }
    pair_close(&p);
    return 0;
}

/* ---- round trip: REQ/REP or DEALER/ROUTER echo ---- */

struct echo {
    void *socket;
    int routed, size, count;
};

static void *echo_main(void *arg)
{
    struct echo *e = arg;
    char id[256];
    char *buffer = malloc(e->size);
    for (int i = 0; i < e->count; i++) {
        if (e->routed) {
            int id_size = zmq_recv(e->socket, id, sizeof id, 0);
            if (id_size < 0) fail("echo recv id");
            int n = zmq_recv(e->socket, buffer, e->size, 0);
            if (n < 0) fail("echo recv");
            zmq_send(e->socket, id, id_size, ZMQ_SNDMORE);
            zmq_send(e->socket, buffer, n, 0);
        } else {
            int n = zmq_recv(e->socket, buffer, e->size, 0);
            if (n < 0) fail("echo recv");
            zmq_send(e->socket, buffer, n, 0);
        }
    }
    free(buffer);
    return NULL;
}

static int roundtrip(const char *pattern, int size, int warmups, int samples)
{
    int routed;
    if (strcmp(pattern, "req-rep") == 0) routed = 0;
    else if (strcmp(pattern, "dealer-router") == 0) routed = 1;
    else { fprintf(stderr, "unknown pattern %s\n", pattern); return 2; }

    void *ctx = zmq_ctx_new();
    void *server = make_socket(ctx, routed ? ZMQ_ROUTER : ZMQ_REP);
    void *client = make_socket(ctx, routed ? ZMQ_DEALER : ZMQ_REQ);
    char endpoint[256];
    bind_any(server, endpoint, sizeof endpoint);
    if (zmq_connect(client, endpoint) != 0) fail("zmq_connect");

    struct echo e = { server, routed, size, warmups + samples };
    pthread_t thread;
    pthread_create(&thread, NULL, echo_main, &e);

    char *payload = malloc(size), *reply = malloc(size);
    int64_t *times = malloc(sizeof(int64_t) * samples);
    memset(payload, 'x', size);
    for (int i = 0; i < warmups + samples; i++) {
        int64_t started = now_ns();
        if (zmq_send(client, payload, size, 0) < 0) fail("zmq_send");
        recv_all(client, reply, size);
        if (i >= warmups) times[i - warmups] = now_ns() - started;
    }
    pthread_join(thread, NULL);

    printf("roundtrip %s %d", pattern, size);
    for (int i = 0; i < samples; i++) printf(" %lld", (long long)times[i]);
    printf("\n");
    zmq_close(client);
    zmq_close(server);
    zmq_ctx_term(ctx);
    free(payload);
    free(reply);
    free(times);
    return 0;
}

#ifdef ZMQ_NATIVE_BENCH_LIBRARY

static struct pair library_pair;

int zmq_native_bench_open(void)
{
    pair_open(&library_pair);
    return 0;
}

long long zmq_native_bench_run(int size, int messages)
{
    return (long long)pair_run(&library_pair, size, messages);
}

void zmq_native_bench_close(void)
{
    pair_close(&library_pair);
}

#else

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "throughput") == 0)
        return throughput(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc == 6 && strcmp(argv[1], "roundtrip") == 0)
        return roundtrip(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc == 2 && strcmp(argv[1], "serve") == 0)
        return serve();
    fprintf(stderr,
            "usage: %s throughput <size> <messages> <warmups> <iterations>\n"
            "       %s roundtrip <req-rep|dealer-router> <size> <warmups> <samples>\n"
            "       %s serve    (then, on stdin: throughput <size> <messages> | sides <size> <messages> | quit)\n",
            argv[0], argv[0], argv[0]);
    return 2;
}

#endif
