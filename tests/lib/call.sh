#!/bin/bash
# call.sh FUNCTION [ARG...]: run FUNCTION, which the caller exported
# (export -f: see as_command in guest.sh), in a new bash with the guest
# library loaded.  How a program that runs a command, such as pagecheck's
# cycle, runs a test's function instead of a script written into /tmp.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh
"$@"
