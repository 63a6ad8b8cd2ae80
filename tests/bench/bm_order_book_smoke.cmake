# Smoke test of bm_order_book: every test case it lists (one per book family and side, so a family added to
# book::all_book_types is covered without editing this file) runs briefly per iteration, per operation, and
# per operation with cache disturbance, and prints its summary line.
#   cmake -DBM=path/to/bm_order_book -P bm_order_book_smoke.cmake
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${BM} --list OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bm_order_book --list failed (${rc})")
endif()
string(STRIP "${listed}" listed)
string(REPLACE "\n" ";" cases "${listed}")
foreach(expected array/buy array/sell map/buy map/sell)
  if(NOT expected IN_LIST cases)
    message(FATAL_ERROR "bm_order_book --list lacks ${expected}: ${cases}")
  endif()
endforeach()

# run(NAME PATTERN ARGS...): all cases; each one's summary line on stderr must match "CASE: PATTERN".
function(run name pattern)
  execute_process(COMMAND ${BM} ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: exit status ${rc}\n${err}")
  endif()
  foreach(c IN LISTS cases)
    string(REGEX MATCH "(^|\n)${c}: ${pattern}" hit "${err}")
    if(NOT hit)
      message(FATAL_ERROR "${name}: no summary line for ${c} matching '${pattern}' in:\n${err}")
    endif()
  endforeach()
  message(STATUS "${name}:\n${err}")
endfunction()

set(ns "min [0-9]+ p25 [0-9]+ p50 [0-9]+ p75 [0-9]+ p90 [0-9]+ p99 [0-9]+ p99.9 [0-9]+ max [0-9]+")
run(per-iteration "N 3 [|] ns/iter ${ns} [|] 500 items/iter: p50 [0-9.]+ ns/item"
    --iterations 3 --warmup 1 --size 500)
run(per-operation "N 600 [|] ns/item ${ns}\n" --per-item --iterations 3 --warmup 1 --size 200)
run(per-operation-cold "N 50 [|] ns/item ${ns}\n"
    --per-item --disturb-cache --disturb-size 256KiB --iterations 1 --warmup 0 --size 50)
run(small-window "N 2 [|] ns/iter ${ns}" --iterations 2 --warmup 0 --size 300 --window 64 --drift-interval 2)
