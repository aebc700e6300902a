#!/usr/bin/env bash
# Sourced on the GPU machine: the Nsight Compute sections isaac's profiles
# collect (ncu-pair.sh, explore-conv.sh), as `ncu "${ncu_sections[@]}"`:
# throughput against the roofline, launch and occupancy, where warps
# stall, the pipes and memory traffic, the schedulers and the instruction
# mix.
ncu_sections=(--section SpeedOfLight --section LaunchStats
  --section Occupancy --section WarpStateStats
  --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
  --section SchedulerStats --section InstructionStats)
