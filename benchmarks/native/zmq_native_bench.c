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
 * Every line of output is whitespace-separated so the .NET report can merge it as "Native (C)" rows.
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

struct sender {
    void *socket;
    char *payload;
    int size, messages, rounds;
    sem_t start;
};

static void *sender_main(void *arg)
{
    struct sender *s = arg;
    for (int round = 0; round < s->rounds; round++) {
        sem_wait(&s->start);
        for (int i = 0; i < s->messages; i++) {
            if (zmq_send(s->socket, "R", 1, ZMQ_SNDMORE) < 0) fail("zmq_send id");
            if (zmq_send(s->socket, s->payload, s->size, 0) < 0) fail("zmq_send payload");
        }
    }
    return NULL;
}

static int throughput(int size, int messages, int warmups, int iterations)
{
    void *ctx = zmq_ctx_new();
    void *receiver = make_socket(ctx, ZMQ_ROUTER);
    void *sender_socket = make_socket(ctx, ZMQ_ROUTER);
    char endpoint[256];
    int one = 1;
    zmq_setsockopt(receiver, ZMQ_ROUTING_ID, "R", 1);
    zmq_setsockopt(sender_socket, ZMQ_ROUTING_ID, "S", 1);
    zmq_setsockopt(sender_socket, ZMQ_ROUTER_MANDATORY, &one, sizeof one);
    bind_any(receiver, endpoint, sizeof endpoint);
    if (zmq_connect(sender_socket, endpoint) != 0) fail("zmq_connect");

    /* The handshake is done when the sender's ROUTER can route to "R". */
    while (zmq_send(sender_socket, "R", 1, ZMQ_SNDMORE) < 0) {
        if (zmq_errno() != EHOSTUNREACH) fail("handshake");
        usleep(100);
    }
    zmq_send(sender_socket, "hi", 2, 0);
    char id[16];
    char *buffer = malloc(size > 16 ? size : 16);
    recv_all(receiver, id, sizeof id);
    recv_all(receiver, buffer, 16);

    struct sender s;
    s.socket = sender_socket;
    s.payload = malloc(size);
    s.size = size;
    s.messages = messages;
    s.rounds = warmups + iterations;
    memset(s.payload, 'x', size);
    sem_init(&s.start, 0, 0);
    pthread_t thread;
    pthread_create(&thread, NULL, sender_main, &s);

    printf("throughput %d %d", size, messages);
    for (int round = 0; round < warmups + iterations; round++) {
        int64_t started = now_ns();
        sem_post(&s.start);
        for (int i = 0; i < messages; i++) {
            recv_all(receiver, id, sizeof id);
            recv_all(receiver, buffer, size);
        }
        int64_t elapsed = now_ns() - started;
        if (round >= warmups) printf(" %lld", (long long)elapsed);
    }
    printf("\n");
    pthread_join(thread, NULL);
    zmq_close(sender_socket);
    zmq_close(receiver);
    zmq_ctx_term(ctx);
    free(s.payload);
    free(buffer);
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

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "throughput") == 0)
        return throughput(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    if (argc == 6 && strcmp(argv[1], "roundtrip") == 0)
        return roundtrip(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
    fprintf(stderr,
            "usage: %s throughput <size> <messages> <warmups> <iterations>\n"
            "       %s roundtrip <req-rep|dealer-router> <size> <warmups> <samples>\n",
            argv[0], argv[0]);
    return 2;
}
