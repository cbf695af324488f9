#!/bin/bash
# total CPU ticks of postgres processes
t=0; for p in $(pgrep -u postgres); do s=$(awk '{print $14+$15+$16+$17}' /proc/$p/stat 2>/dev/null); t=$((t+${s:-0})); done; echo $t
