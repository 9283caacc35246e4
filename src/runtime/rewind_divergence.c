/* SPDX-License-Identifier: MIT */
/* rewind_divergence.c - what a jump whose replay diverged says (rewind.c keeps the host shown). A
 * replay diverges when a step depends on something the recording does not hold: a value read from
 * outside the run that the tape only notes (io.popen, a file opened to write), the time outside
 * os.time and os.clock, the order of a walk over objects used as keys that pairs() met for the
 * first time together (scenes' pairs walks every other key in one order: bindings/lpairs.c). The message names the step
 * that cannot be shown, why, and what the user has now. */
#include "rewind.h"

#include <stdio.h>
#include <string.h>

void rewind_keep_shown_after_divergence(char *error, size_t error_size, long long step, long long shown, bool live)
{
    char why[1024];
    snprintf(why, sizeof why, "%s", error);
    snprintf(error, error_size,
             "rewind: step %lld cannot be shown: %s. A step that depends on something the recording does not hold "
             "diverges: a value read from outside the run (io.popen, a file opened to write), or the order of a "
             "walk over tables or functions used as keys that pairs() met for the first time together. %s at "
             "step %lld",
             step, why, live ? "The live run goes on" : "The step shown stays", shown);
}
