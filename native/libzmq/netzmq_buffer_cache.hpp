/* Net.Zmq's change to the libzmq it bundles: a process-wide cache of message and receive buffers.
 *
 * libzmq mallocs the buffer of every message over 33 bytes on the sending thread and frees it on its I/O thread,
 * and mallocs each receive batch on the I/O thread and frees it on the receiving thread. With glibc every such free
 * goes back to the arena of another thread, where it coalesces with free memory that glibc then hands back to the
 * kernel and asks for again, page by page; a managed process, with its many threads and arenas, pays for that more
 * than a small C program does. This cache keeps freed buffers of 513 bytes to 64 KB (size included the header
 * below) in size classes, four per power of two, for the next allocation of the same class, up to
 * netzmq::buffer_cache::limit bytes in the whole process; beyond that, and for other sizes, it is malloc and free.
 * native/build-libzmq.sh routes libzmq's message contents (msg.cpp) and receive batches (decoder_allocators.cpp)
 * through acquire () and release (); every such block is released by the same library that acquired it.
 */
#ifndef NETZMQ_BUFFER_CACHE_HPP_INCLUDED
#define NETZMQ_BUFFER_CACHE_HPP_INCLUDED

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <thread>

namespace netzmq
{
namespace buffer_cache
{
//  The most bytes of free blocks the process keeps.
static const std::size_t limit = 8 * 1024 * 1024;

//  Ahead of every block, so the caller's pointer keeps malloc's 16-byte alignment: the block's class, and while
//  the block is cached, the next free block of its class.
struct header_t
{
    int size_class;
    header_t *next;
};
static const std::size_t header_size = 16;
static_assert (sizeof (header_t) <= header_size, "the header must fit ahead of the block");

static const int min_shift = 9;  //  classes start above 512 bytes...
static const int max_shift = 16; //  ...and end at 64 KB
static const int steps = 4;      //  classes per power of two
static const int class_count = (max_shift - min_shift) * steps;
static const int uncached = -1;

struct state_t
{
    constexpr state_t () : busy (false), kept (0), free_blocks () {}
    std::atomic<bool> busy;
    std::size_t kept;
    header_t *free_blocks[class_count];
};

//  One instance in the library (an inline function's static), constant-initialised.
inline state_t &state ()
{
    static state_t instance;
    return instance;
}

//  The class of a block of total_ bytes (header included), or uncached.
inline int class_of (std::size_t total_)
{
    if (total_ <= (static_cast<std::size_t> (1) << min_shift)
        || total_ > (static_cast<std::size_t> (1) << max_shift))
        return uncached;
    const std::size_t n = total_ - 1;
    int shift = min_shift;
    while ((n >> (shift + 1)) != 0)
        ++shift;
    const int step = static_cast<int> ((n >> (shift - 2)) & (steps - 1));
    return (shift - min_shift) * steps + step;
}

//  The bytes of every block of a class: (5..8) quarters of its power of two.
inline std::size_t class_size (int size_class_)
{
    const int shift = size_class_ / steps + min_shift;
    return static_cast<std::size_t> (steps + size_class_ % steps + 1)
           << (shift - 2);
}

inline void lock (state_t &state_)
{
    while (state_.busy.exchange (true, std::memory_order_acquire)) {
        for (int spins = 0; state_.busy.load (std::memory_order_relaxed);
             ++spins)
            if (spins >= 64)
                std::this_thread::yield ();
    }
}

inline void unlock (state_t &state_)
{
    state_.busy.store (false, std::memory_order_release);
}

//  Like malloc (size_), for a block that must be given back with release ().
inline void *acquire (std::size_t size_)
{
    if (size_ > static_cast<std::size_t> (-1) - header_size)
        return NULL;
    const int size_class = class_of (size_ + header_size);
    header_t *block = NULL;
    if (size_class != uncached) {
        state_t &s = state ();
        lock (s);
        block = s.free_blocks[size_class];
        if (block) {
            s.free_blocks[size_class] = block->next;
            s.kept -= class_size (size_class);
        }
        unlock (s);
        if (!block)
            block = static_cast<header_t *> (std::malloc (class_size (size_class)));
    } else
        block = static_cast<header_t *> (std::malloc (size_ + header_size));
    if (!block)
        return NULL;
    block->size_class = size_class;
    return reinterpret_cast<unsigned char *> (block) + header_size;
}

//  Like free (ptr_), for a block from acquire ().
inline void release (void *ptr_)
{
    if (!ptr_)
        return;
    header_t *block = reinterpret_cast<header_t *> (
      static_cast<unsigned char *> (ptr_) - header_size);
    const int size_class = block->size_class;
    if (size_class != uncached) {
        state_t &s = state ();
        const std::size_t size = class_size (size_class);
        lock (s);
        const bool keep = s.kept + size <= limit;
        if (keep) {
            block->next = s.free_blocks[size_class];
            s.free_blocks[size_class] = block;
            s.kept += size;
        }
        unlock (s);
        if (keep)
            return;
    }
    std::free (block);
}
}
}

#endif
