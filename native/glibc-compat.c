/*
 * Linked into the Linux builds of libzmq (native/build-libzmq.sh) so that they load on glibc 2.35.
 *
 * The static libstdc++ of Debian 12's gcc calls arc4random, which glibc has only since 2.36, from std::random_device.
 * This definition, hidden inside libzmq.so, is what that call binds to instead of glibc's: the same contract
 * (a uniformly random 32-bit value from the kernel's generator), built on getrandom (glibc 2.25).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

__attribute__((visibility("hidden"))) uint32_t arc4random(void)
{
    uint32_t value;
    size_t filled = 0;
    while (filled < sizeof value) {
        ssize_t n = getrandom((char *)&value + filled, sizeof value - filled, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            abort(); /* as glibc's arc4random does when the kernel cannot supply randomness */
        }
        filled += (size_t)n;
    }
    return value;
}
