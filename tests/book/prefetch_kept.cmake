# Checks that the built itch5inside holds software prefetch instructions: GCC 12 deleted every one of the
# engine's look-ahead prefetches (see book/include/itch5/book/detail/prefetch.hpp), silently, and no other test
# notices their absence (they change no output). Run by ctest as
#   cmake -DOBJDUMP=... -DBINARY=... -DMIN_COUNT=N -P prefetch_kept.cmake
execute_process(COMMAND "${OBJDUMP}" -d --no-show-raw-insn "${BINARY}" OUTPUT_VARIABLE asm RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${BINARY} failed (${rc})")
endif()
string(REGEX MATCHALL "[ \t]prefetch[a-z0-9]*[ \t]" found "${asm}")
list(LENGTH found count)
message(STATUS "${BINARY}: ${count} prefetch instructions")
if(count LESS MIN_COUNT)
  message(FATAL_ERROR "${BINARY} holds ${count} prefetch instructions, fewer than ${MIN_COUNT}: the compiler "
                      "removed the book engine's prefetches (itch5/book/detail/prefetch.hpp)")
endif()
