/* Times M4RI's reduced row echelon form on a random n x n matrix over GF(2):
 * the reference that pegflip's gf2::Matrix::rref is measured against.
 * Build and run with benches/m4ri/compare.sh. */
#include <m4ri/m4ri.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    double best = 1e30, times[64];
    rci_t rank = 0;
    for (int r = 0; r < runs && r < 64; r++) {
        mzd_t *a = mzd_init(n, n);
        mzd_randomize(a);
        double t0 = now();
        rank = mzd_echelonize_m4ri(a, 1, 0); /* full RREF, automatic k */
        times[r] = now() - t0;
        if (times[r] < best) best = times[r];
        mzd_free(a);
    }
    /* median */
    for (int i = 0; i < runs; i++)
        for (int j = i + 1; j < runs; j++)
            if (times[j] < times[i]) { double t = times[i]; times[i] = times[j]; times[j] = t; }
    printf("m4ri    n=%d rank=%d median %.3f s (best %.3f s, %d runs)\n", n, rank, times[runs / 2], best, runs);
    return 0;
}
