/* Times FLINT's nmod_mat_rref on a random n x n matrix over GF(p): the reference that
 * pegflip's byte-lane elimination (zk::field::reduce) is measured against.
 * Build and run with benches/flint/compare.sh. */
#include <flint/flint.h>
#include <flint/nmod_mat.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    slong n = argc > 1 ? atol(argv[1]) : 4096;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    ulong p = argc > 3 ? strtoul(argv[3], NULL, 10) : 3;
    double best = 1e30, times[64];
    slong rank = 0;
    flint_rand_t state;
    flint_randinit(state);
    for (int r = 0; r < runs && r < 64; r++) {
        nmod_mat_t a;
        nmod_mat_init(a, n, n, p);
        nmod_mat_randfull(a, state);
        double t0 = now();
        rank = nmod_mat_rref(a);
        times[r] = now() - t0;
        if (times[r] < best) best = times[r];
        nmod_mat_clear(a);
    }
    for (int i = 0; i < runs; i++)
        for (int j = i + 1; j < runs; j++)
            if (times[j] < times[i]) { double t = times[i]; times[i] = times[j]; times[j] = t; }
    printf("flint   n=%ld p=%lu rank=%ld median %.3f s (best %.3f s, %d runs)\n", n, p, rank,
           times[runs / 2], best, runs);
    flint_randclear(state);
    return 0;
}
